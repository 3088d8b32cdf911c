// The host script's ensure_device (apply, boot, rollback) run by dash with `ip` and sysfs reads stubbed: a bond
// or VLAN that exists with another MAC than the recorded one gets the recorded MAC back (a NetworkManager bond
// under a VLAN came back with a random MAC on a VM once NM let go of it: the VM-tier DHCP scenario found it),
// one that has it is left alone, and a missing VLAN is made on its parent. restore_prev (rollback) of an
// NM-made DHCP VLAN on a bond gives NM back the bond and its ports before the VLAN (the same scenario's
// rollback left them unmanaged).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderPrev } from '../../src/modules/ovs_gateway/env.js';

const part = (name: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/script/configure-ovs-${name}.sh`, import.meta.url), 'utf8');
const APPLY = `${part('apply')}\n${part('nm')}`;
const RECORDED = '52:54:01:71:43:0b';

/** The `ip` commands ensure_device runs for bond0.100 on bond0 (eth1+eth2 already its ports), the links' MAC being `mac`. */
function ensure(mac: string, vlanExists = true): string[] {
  const stubs = [
    'ip() { echo "ip $*" >>"$LOG"; case "$*" in "link show dev bond0.100") return $VLAN_EXISTS ;; esac; return 0; }',
    'cat() { case "$1" in */address) echo "$MAC_NOW" ;; */ifindex) echo 7 ;; *) command cat "$@" ;; esac; }',
  ].join('\n');
  const run = `${APPLY}\n${stubs}\nKIND=vlan VLAN_ID=100 VLAN_PROTO=802.1Q VLAN_PARENT=bond0 BOND_OPTS="mode active-backup miimon 100" MEMBERS="eth1 eth2"\n` +
    `LOG=$(mktemp); ensure_device bond0.100 "${RECORDED}"; rc=$?; command cat "$LOG"; rm -f "$LOG"; echo "rc=$rc"`;
  return execFileSync('dash', ['-c', run], { env: { MAC_NOW: mac, VLAN_EXISTS: vlanExists ? '0' : '1', PATH: process.env.PATH }, encoding: 'utf8' }).trim().split('\n');
}

test('a bond and VLAN that came back with another MAC get the recorded one', (t) => {
  const out = ensure('16:33:2f:bf:e9:8b');
  t.is(out.at(-1), 'rc=0');
  t.true(out.includes(`ip link set dev bond0 address ${RECORDED}`), out.join('\n'));
  t.true(out.includes(`ip link set dev bond0.100 address ${RECORDED}`), out.join('\n'));
  t.false(out.some((l) => /link add/.test(l)), 'both exist: nothing is made');
});

test('a bond and VLAN with the recorded MAC are left alone; a missing VLAN is made on its parent', (t) => {
  const same = ensure(RECORDED);
  t.is(same.at(-1), 'rc=0');
  t.false(same.some((l) => / address /.test(l)), same.join('\n'));
  const made = ensure(RECORDED, false);
  t.true(made.includes('ip link add link bond0 name bond0.100 type vlan protocol 802.1Q id 100'), made.join('\n'));
});

test('the rollback of an NM-made DHCP VLAN on a bond hands NM the bond and its ports back, then the VLAN, then its profile', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-restore-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'br-ex.prev'), renderPrev({ iface: 'bond0.100', mac: RECORDED, mtu: 1500, method: 'dhcp', addrs: [], routes: [], gateways: [],
    nmConn: 'c0ffee00-0000-4000-8000-000000000100', device: { kind: 'vlan', id: 100, protocol: '802.1Q', parent: 'bond0', parentBond: { options: ['mode', 'active-backup'], members: ['eth1', 'eth2'] } } }));
  const stubs = ['log() { echo "$*" >>"$LOG"; }', 'ip() { log ip "$@"; return 0; }', 'nmcli() { log nmcli "$@"; }', 'nm_running() { return 0; }',
    'vsctl() { log vsctl "$@"; }', 'nft() { return 1; }', 'systemctl() { return 1; }', 'nm_unmanage_all() { log nm_unmanage_all; }',
    'cat() { case "$1" in */address) echo "' + RECORDED + '" ;; */ifindex) echo 7 ;; *) command cat "$@" ;; esac; }'].join('\n');
  const out = execFileSync('dash', ['-c', `${APPLY}\n${stubs}\nLIB=${dir} ETC=${dir} LOG=${dir}/log; restore_prev br-ex; command cat "$LOG"`], { encoding: 'utf8' });
  const nm = out.split('\n').filter((l) => l.startsWith('nmcli ') && !l.startsWith('nmcli -g '));
  t.deepEqual(nm, ['nmcli device set bond0 managed yes', 'nmcli device set eth1 managed yes', 'nmcli device set eth2 managed yes',
    'nmcli device set bond0.100 managed yes', 'nmcli connection up uuid c0ffee00-0000-4000-8000-000000000100 ifname bond0.100'], out);
});
