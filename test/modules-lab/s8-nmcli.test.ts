// community.general.nmcli (over nm_connection's read) on a real lab host with NetworkManager: a
// bridge and an ethernet (a veth inside the host; nspawn hosts have no bonding/8021q, bonds and VLANs
// are covered by plan in test/modules/nmcli.test.ts) converge, re-run with changed=0, --check
// predicts a new gateway without touching the profile, absent deletes, unmapped arguments are refused.
import test from 'ava';
import type { LabHost } from '../helpers/lab-host.js';
import { labModuleTest } from '../helpers/lab-converge.js';
import type { LabPlay } from '../helpers/lab-play.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const lab = labModuleTest(LAB);
let host: LabHost | undefined;
let play: LabPlay;

test.before(async () => {
  ({ host, play } = await lab.up());
  await host.sh('ip link add s8v type veth peer name s8vp');
});

const NM = (gw: string, state = 'present') => `
- hosts: all
  gather_facts: false
  tasks:
    - name: bridge
      community.general.nmcli: { conn_name: br-s8, type: bridge, ifname: br-s8, ip4: 192.0.2.10/24, gw4: ${gw}, stp: false, state: ${state} }
    - name: ethernet
      community.general.nmcli:
        conn_name: eth-s8
        type: ethernet
        ifname: s8v
        ip4: [198.51.100.5/24, 198.51.100.6]
        dns4: [192.0.2.53]
        mtu: 1400
        state: ${state}
    - name: unmapped
      nmcli: { conn_name: tun-s8, type: ethernet, routes4: [10.0.0.0/8 192.0.2.1], state: present }
      ignore_errors: true
`;

test.serial('nmcli converges a bridge and an ethernet, no-op again, --check predicts, absent deletes', async (t) => {
  t.timeout(3 * 60_000);
  const read = () => host!.sh('nmcli -g ipv4.addresses,ipv4.gateway,bridge.stp con show br-s8; nmcli -g ipv4.addresses,ipv4.dns,802-3-ethernet.mtu con show eth-s8');
  const good = '192.0.2.10/24\n192.0.2.1\nno\n198.51.100.5/24, 198.51.100.6/32\n192.0.2.53\n1400\n';
  const first = await play('nm', NM('192.0.2.1'));
  t.like(first.result('bridge'), { outcome: 'changed', Connection: 'Connection br-s8 of Type bridge is being added', conn_name: 'br-s8', state: 'present' });
  t.like(first.result('ethernet'), { outcome: 'changed' });
  t.regex(first.result('ethernet').stdout, /Connection successfully activated/, 'an ethernet given mtu/DNS is brought up, as the module does');
  t.is(await read(), good);
  t.like(first.result('unmapped'), { outcome: 'failed' });
  t.regex(first.result('unmapped').msg, /^routes4: not built in hostwire's nmcli/);
  const again = await play('nm-again', NM('192.0.2.1'));
  t.like(again.result('bridge'), { outcome: 'ok', changed: false, Exists: 'Connections already exist and no changes made' });
  t.like(again.result('ethernet'), { outcome: 'ok', changed: false });
  t.is(again.changed, 0);
  const checked = await play('nm-check', NM('192.0.2.254'), { check: true, diff: true });
  t.like(checked.result('bridge'), { outcome: 'changed', Exists: 'Connections do exist so we are modifying them' });
  t.is(await read(), good, '--check left the profiles alone');
  const moved = await play('nm-move', NM('192.0.2.254'));
  t.like(moved.result('bridge'), { outcome: 'changed' });
  t.is(await host!.sh('nmcli -g ipv4.gateway con show br-s8'), '192.0.2.254\n');
  const gone = await play('nm-absent', NM('192.0.2.254', 'absent'));
  t.like(gone.result('bridge'), { outcome: 'changed' });
  t.is(await host!.sh('nmcli -g NAME con show | grep -c s8 || true'), '0\n');
});
