// restore_prev (the rollback) of an NM-made DHCP bond, run by dash with nmcli/ip/ovs-vsctl stubbed from recorded NM
// state: NM gets the bond back under its own profile first, then its ports, and a port NM gave another profile (its
// auto-made "Wired connection 2": on a VM host it ran DHCP on eth2's own MAC out of the bond and stranded the host)
// is activated under its own port profile; a port already connected under its port profile is left alone, another
// bond's port profile on the same NIC is not taken, and a port whose profile never comes up is tried 3 times only.
// The cost on a loaded host: a port already under its port profile is found by asking NM which profile it runs (no
// scan of every profile: 303 s of rollback on a VM), and a bond NM already re-activated itself with its lease is not
// activated again (that renewed the lease: bond0 without its address for 25 s).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderPrev } from '../../src/modules/ovs_gateway/env.js';

const part = (name: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/script/configure-ovs-${name}.sh`, import.meta.url), 'utf8');
const SCRIPT = `${part('apply')}\n${part('nm')}`;
const MAC = '52:54:01:71:43:0b';
const BOND = 'c0ffee00-0000-4000-8000-0000000000b0';

// Profiles as `nmcli -g <fields> connection show uuid <u>` answers (one value a line): uuid -> [interface-name, slave-type, master].
const PROFILES: Record<string, [string, string, string]> = {
  w1: ['', '', ''], w2: ['', '', ''], // NM's auto-made "Wired connection N": bound by MAC, no interface name
  [BOND]: ['bond0', '', ''],
  p9: ['eth2', 'bond', 'bond9'], // another bond's port profile on eth2
  p1: ['eth1', 'bond', 'bond0'], // master by name
  p2: ['eth2', 'bond', BOND], // master by the bond profile's uuid
};
const FIELDS = ['connection.interface-name', 'connection.slave-type', 'connection.master'];

/**
 * Every nmcli command restore_prev runs, queries too. `eth2Up`: whether activating p2 on eth2 succeeds; `bondHeld`:
 * NM runs the bond's profile on bond0 already, activated, with its lease.
 */
function rollback(t: { teardown(f: () => void): void }, o: { eth2Up: boolean; bondHeld?: boolean }): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-bond-rb-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'br-ex.prev'), renderPrev({ iface: 'bond0', mac: MAC, mtu: 1500, method: 'dhcp', addrs: [], routes: [], gateways: [],
    nmConn: BOND, device: { kind: 'bond', options: ['mode', 'active-backup', 'miimon', '100'], members: ['eth1', 'eth2'] } }));
  const answers = Object.entries(PROFILES).flatMap(([u, v]) => FIELDS.map((f, i) => `"${f} ${u}") echo "${v[i]}" ;;`)).join(' ');
  const stubs = [
    'log() { echo "$*" >>"$LOG"; }',
    `field() { case "$1 $2" in ${answers} esac; }`,
    'nmcli() { log nmcli "$@"; case "$1 $3 $4" in',
    `  "-g connection show") if [ "$2" = UUID ]; then echo "${Object.keys(PROFILES).join(' ')}" | tr ' ' '\\n'; else for f in $(echo "$2" | tr , ' '); do field "$f" "$6"; done; fi ;;`,
    '  "-g device show") case "$2 $5" in',
    '    "GENERAL.CON-UUID eth1") echo p1 ;;',
    '    "GENERAL.CON-UUID eth2") if [ "$ETH2_UP" = 1 ] && grep -q "up uuid p2 ifname eth2" "$LOG"; then echo p2; else echo w2; fi ;;',
    `    "GENERAL.CON-UUID bond0") [ "$BOND_HELD" = 1 ] && echo ${BOND} ;;`,
    '    "GENERAL.STATE "*) echo "100 (connected)" ;;',
    '  esac ;;',
    '  "connection up uuid") [ "$4" != p2 ] || [ "$ETH2_UP" = 1 ] ;;',
    'esac; }',
    'ip() { log ip "$@"; if [ "$BOND_HELD" = 1 ] && [ "$*" = "-o -4 addr show dev bond0 scope global" ]; then echo "7: bond0 inet 10.0.0.11/24 brd 10.0.0.255 scope global dynamic bond0"; fi; return 0; }',
    'nm_running() { return 0; }', 'vsctl() { log vsctl "$@"; }', 'nft() { return 1; }',
    'systemctl() { return 1; }', 'nm_unmanage_all() { log nm_unmanage_all; }', 'sleep() { :; }',
    `cat() { case "$1" in */address) echo "${MAC}" ;; */ifindex) echo 7 ;; *) command cat "$@" ;; esac; }`].join('\n');
  const out = execFileSync('dash', ['-c', `${SCRIPT}\n${stubs}\nLIB=${dir} ETC=${dir} LOG=${dir}/log; restore_prev br-ex; command cat "$LOG"`],
    { encoding: 'utf8', env: { PATH: process.env.PATH, ETH2_UP: o.eth2Up ? '1' : '0', BOND_HELD: o.bondHeld ? '1' : '0' } });
  return out.split('\n').filter((l) => l.startsWith('nmcli '));
}
const changes = (nm: string[]) => nm.filter((l) => !l.startsWith('nmcli -g '));

test('the rollback of an NM-made DHCP bond: the bond\'s profile first, then a port NM took with another profile back under its port profile', (t) => {
  t.deepEqual(changes(rollback(t, { eth2Up: true })), ['nmcli device set bond0 managed yes', `nmcli connection up uuid ${BOND} ifname bond0`,
    'nmcli device set eth1 managed yes', 'nmcli device set eth2 managed yes', 'nmcli connection up uuid p2 ifname eth2']);
});

test('a port whose profile does not come up is tried 3 times, then the rollback goes on', (t) => {
  const nm = changes(rollback(t, { eth2Up: false }));
  t.is(nm.filter((l) => l === 'nmcli connection up uuid p2 ifname eth2').length, 3, nm.join('\n'));
  t.false(nm.some((l) => /up uuid (p9|p1|w\d)/.test(l)), nm.join('\n'));
});

test('a port already under its port profile is found by asking NM which profile it runs: one query of that profile, no scan', (t) => {
  const nm = rollback(t, { eth2Up: true });
  const eth1 = nm.slice(nm.indexOf('nmcli -g GENERAL.CON-UUID device show eth1'), nm.indexOf('nmcli -g GENERAL.CON-UUID device show eth2')).filter((l) => !l.includes('GENERAL.STATE'));
  t.deepEqual(eth1, ['nmcli -g GENERAL.CON-UUID device show eth1',
    'nmcli -g connection.interface-name,connection.slave-type,connection.master connection show uuid p1', 'nmcli -g GENERAL.CON-UUID device show eth1'], nm.join('\n'));
  // eth2 runs NM's auto profile: the scan looks for its port profile (once).
  t.is(nm.filter((l) => l === 'nmcli -g UUID connection show').length, 1, nm.join('\n'));
});

test('a bond NM already re-activated itself under its profile with its lease is not activated again; its ports still looked after', (t) => {
  const nm = changes(rollback(t, { eth2Up: true, bondHeld: true }));
  t.deepEqual(nm, ['nmcli device set bond0 managed yes', 'nmcli device set eth1 managed yes', 'nmcli device set eth2 managed yes',
    'nmcli connection up uuid p2 ifname eth2'], nm.join('\n'));
});

// The static uplink of an NM profile (nm backend, its <bridge>.nm staged): the addresses put back with `ip` have
// prefix routes without NM's metric, so the profile is activated again even where NM runs it already - skipped,
// an nspawn --nm-ovs host's rollback left a second 10.x.0/24 route without a metric (test/vm/nm-uplink-ipv6.test.ts).
test('the static uplink of an NM profile is activated again even where NM already runs it (NM\'s metric on the prefix route)', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-static-rb-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const conn = 'c0ffee00-0000-4000-8000-0000000000e0';
  writeFileSync(path.join(dir, 'br-ex.prev'), renderPrev({ iface: 'eth0', mac: MAC, mtu: 1500, method: 'static', addrs: ['10.0.0.11/24'], routes: ['default via 10.0.0.1'], gateways: ['10.0.0.1'], nmConn: conn }));
  writeFileSync(path.join(dir, 'br-ex.nm'), 'true\n');
  const stubs = [
    'log() { echo "$*" >>"$LOG"; }',
    `nmcli() { log nmcli "$@"; case "$2 $3" in "GENERAL.CON-UUID device") echo ${conn} ;; "GENERAL.STATE device") echo "100 (connected)" ;; esac; return 0; }`,
    'ip() { log ip "$@"; if [ "$1 $2" = "-o addr" ]; then echo "2: eth0 inet 10.0.0.11/24 brd 10.0.0.255 scope global eth0"; fi; return 0; }',
    'route_replace() { log route "$@"; }', 'nm_running() { return 0; }', 'vsctl() { log vsctl "$@"; }', 'nft() { return 1; }',
    'systemctl() { return 1; }', 'nm_unmanage_all() { log nm_unmanage_all; }', 'sleep() { :; }',
    `cat() { case "$1" in */address) echo "${MAC}" ;; */ifindex) echo 2 ;; *) command cat "$@" ;; esac; }`].join('\n');
  const out = execFileSync('dash', ['-c', `${SCRIPT}\n${stubs}\nLIB=${dir} ETC=${dir} LOG=${dir}/log; restore_prev br-ex; command cat "$LOG"`], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  t.true(out.split('\n').includes(`nmcli connection up uuid ${conn}`), out);
});
