// openvswitch_port (the openvswitch collection's names over ovs_port) on a real lab host with OVS:
// converges a new tagged port with external ids and a set entry, re-runs with changed=0, --check
// predicts a retag without touching OVSDB, a port on another bridge fails as the module's add-port
// would, and absent deletes it.
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
  await host.sh('ovs-vsctl add-br br-s8 -- set Bridge br-s8 datapath_type=netdev && ovs-vsctl add-br br-s8b -- set Bridge br-s8b datapath_type=netdev');
});

const PORT = (tag: number, state = 'present') => `
- hosts: all
  gather_facts: false
  tasks:
    - name: port
      openvswitch.openvswitch.openvswitch_port:
        bridge: br-s8
        port: p-s8
        tag: ${tag}
        state: ${state}
        external_ids: { owner: s8, iface-id: "vm-1" }
        set: Interface p-s8 type=internal
    - name: elsewhere
      openvswitch_port: { bridge: br-s8b, port: p-s8, tag: ${tag} }
      ignore_errors: true
`;

test.serial('openvswitch_port converges, no-op again, --check predicts, another bridge fails, absent deletes', async (t) => {
  t.timeout(3 * 60_000);
  const read = () => host!.sh('ovs-vsctl port-to-br p-s8; ovs-vsctl get Port p-s8 tag external_ids; ovs-vsctl get Interface p-s8 type');
  const first = await play('port', PORT(20));
  t.like(first.result('port'), { outcome: 'changed' });
  t.is(await read(), 'br-s8\n20\n{iface-id=vm-1, owner=s8}\ninternal\n');
  t.like(first.result('elsewhere'), { outcome: 'failed' });
  t.regex(first.result('elsewhere').msg, /cannot create a port named p-s8 because a port named p-s8 already exists on bridge br-s8/);
  const again = await play('port-again', PORT(20));
  t.like(again.result('port'), { outcome: 'ok', changed: false, commands: [] });
  t.is(again.changed, 0);
  const checked = await play('port-check', PORT(30), { check: true, diff: true });
  t.like(checked.result('port'), { outcome: 'changed', commands: ['ovs-vsctl --timeout=5 set port p-s8 tag=30'] });
  t.is(await read(), 'br-s8\n20\n{iface-id=vm-1, owner=s8}\ninternal\n', '--check left the port alone');
  const gone = await play('port-absent', PORT(20, 'absent'));
  t.like(gone.result('port'), { outcome: 'changed', commands: ['ovs-vsctl --timeout=5 del-port br-s8 p-s8'] });
  t.is(await host!.sh('ovs-vsctl list-ports br-s8'), '');
});
