// restore_prev (the rollback) of an NM-made DHCP bond, run by dash with nmcli/ip/ovs-vsctl stubbed from recorded NM
// state: NM gets the bond back under its own profile first, then its ports, and a port NM gave another profile (its
// auto-made "Wired connection 2": on a VM host it ran DHCP on eth2's own MAC out of the bond and stranded the host)
// is activated under its own port profile; a port already connected under its port profile is left alone, another
// bond's port profile on the same NIC is not taken, and a port whose profile never comes up is tried 3 times only.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderPrev } from '../../src/modules/ovs_gateway/env.js';

const APPLY = readFileSync(new URL('../../../src/modules/ovs_gateway/script/configure-ovs-apply.sh', import.meta.url), 'utf8');
const MAC = '52:54:01:71:43:0b';
const BOND = 'c0ffee00-0000-4000-8000-0000000000b0';

// Profiles as `nmcli -g <field> connection show uuid <u>` answers: uuid -> [interface-name, slave-type, master].
const PROFILES: Record<string, [string, string, string]> = {
  w1: ['', '', ''], w2: ['', '', ''], // NM's auto-made "Wired connection N": bound by MAC, no interface name
  [BOND]: ['bond0', '', ''],
  p9: ['eth2', 'bond', 'bond9'], // another bond's port profile on eth2
  p1: ['eth1', 'bond', 'bond0'], // master by name
  p2: ['eth2', 'bond', BOND], // master by the bond profile's uuid
};

/** The nmcli commands restore_prev runs (queries left out); `eth2Up`: whether activating p2 on eth2 succeeds. */
function rollback(t: { teardown(f: () => void): void }, eth2Up: boolean): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-bond-rb-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'br-ex.prev'), renderPrev({ iface: 'bond0', mac: MAC, mtu: 1500, method: 'dhcp', addrs: [], routes: [], gateways: [],
    nmConn: BOND, device: { kind: 'bond', options: ['mode', 'active-backup', 'miimon', '100'], members: ['eth1', 'eth2'] } }));
  const field = (i: number) => Object.entries(PROFILES).map(([u, v]) => `"${u}") echo "${v[i]}" ;;`).join(' ');
  const stubs = [
    'log() { echo "$*" >>"$LOG"; }',
    'nmcli() { log nmcli "$@"; case "$1 $2 $3 $4" in',
    `  "-g UUID connection show") echo "${Object.keys(PROFILES).join(' ')}" | tr ' ' '\\n' ;;`,
    `  "-g connection.interface-name connection show") case "$6" in ${field(0)} esac ;;`,
    `  "-g connection.slave-type connection show") case "$6" in ${field(1)} esac ;;`,
    `  "-g connection.master connection show") case "$6" in ${field(2)} esac ;;`,
    '  "-g GENERAL.CON-UUID device show") case "$5" in eth1) echo p1 ;; eth2) if [ "$ETH2_UP" = 1 ] && grep -q "up uuid p2 ifname eth2" "$LOG"; then echo p2; else echo w2; fi ;; esac ;;',
    '  "-g GENERAL.STATE device show") echo "100 (connected)" ;;',
    '  "connection up uuid p2") [ "$ETH2_UP" = 1 ] ;;',
    'esac; }',
    'ip() { log ip "$@"; return 0; }', 'nm_running() { return 0; }', 'vsctl() { log vsctl "$@"; }', 'nft() { return 1; }',
    'systemctl() { return 1; }', 'nm_unmanage_all() { log nm_unmanage_all; }', 'sleep() { :; }',
    `cat() { case "$1" in */address) echo "${MAC}" ;; */ifindex) echo 7 ;; *) command cat "$@" ;; esac; }`].join('\n');
  const out = execFileSync('dash', ['-c', `${APPLY}\n${stubs}\nLIB=${dir} ETC=${dir} LOG=${dir}/log; restore_prev br-ex; command cat "$LOG"`],
    { encoding: 'utf8', env: { PATH: process.env.PATH, ETH2_UP: eth2Up ? '1' : '0' } });
  return out.split('\n').filter((l) => l.startsWith('nmcli ') && !l.startsWith('nmcli -g '));
}

test('the rollback of an NM-made DHCP bond: the bond\'s profile first, then a port NM took with another profile back under its port profile', (t) => {
  t.deepEqual(rollback(t, true), ['nmcli device set bond0 managed yes', `nmcli connection up uuid ${BOND} ifname bond0`,
    'nmcli device set eth1 managed yes', 'nmcli device set eth2 managed yes', 'nmcli connection up uuid p2 ifname eth2']);
});

test('a port whose profile does not come up is tried 3 times, then the rollback goes on', (t) => {
  const nm = rollback(t, false);
  t.is(nm.filter((l) => l === 'nmcli connection up uuid p2 ifname eth2').length, 3, nm.join('\n'));
  t.false(nm.some((l) => /up uuid (p9|p1|w\d)/.test(l)), nm.join('\n'));
});
