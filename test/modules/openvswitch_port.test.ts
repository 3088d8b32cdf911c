// openvswitch_port's judgement from OVSDB rows recorded on a lab host (src/modules/ovs_port/cases):
// the commands it runs (each word quoted) beside the ones openvswitch.openvswitch 2.1.1 ran there,
// and the failures it says before running anything.
import test from 'ava';
import { getModule } from '../../src/modules/all.js';
import { openvswitchPortWant } from '../../src/modules/ovs_port/openvswitch_port.js';
import { parseOpenvswitchPort, planOpenvswitchPort, type OvsPortHave, type OvsPortWant } from '../../src/modules/ovs_port/openvswitch-port-plan.js';
import { loadCase } from './net-cases.js';

const mod = getModule('openvswitch_port')!;
const want = (a: Record<string, unknown>) => openvswitchPortWant(mod.args.parse(a) as never);
const have = (name: string) => parseOpenvswitchPort(loadCase('ovs_port', name).stdout);
const plan = (name: string) => {
  const c = loadCase('ovs_port', name) as { args: Record<string, unknown> };
  const r = planOpenvswitchPort(have(name), want(c.args) as OvsPortWant);
  return typeof r === 'string' ? r : r.flatMap((ch) => ch.run);
};

test('the recorded rows read as the port, its tag, external ids and the bridges', (t) => {
  t.like(have('openvswitch-port-retag'), { exists: true, bridge: 'br-s8', tag: '10', externalIds: { owner: 's8', x: 'y' }, bridges: ['br-s8'] });
  t.like(have('openvswitch-port-new'), { exists: false, bridges: ['br-s8'] });
});

test("the commands are the module's, in its order, every word quoted", (t) => {
  t.deepEqual(plan('openvswitch-port-new'), [
    `ovs-vsctl --timeout=5 add-port br-s8 p-new tag=20 -- set Interface p-new type=internal`,
    `ovs-vsctl --timeout=5 set port p-new 'external_ids:"owner"="s8"'`,
  ]);
  t.deepEqual(plan('openvswitch-port-retag'), [
    'ovs-vsctl --timeout=5 set port p-tagged tag=11',
    `ovs-vsctl --timeout=5 set port p-tagged 'external_ids:"owner"="s9"'`,
    `ovs-vsctl --timeout=5 remove port p-tagged external_ids '"x"'`,
  ]);
  t.deepEqual(plan('openvswitch-port-absent'), ['ovs-vsctl --timeout=5 del-port br-s8 p-tagged']);
  t.deepEqual(plan('openvswitch-port-unchanged'), []);
});

const tagged: OvsPortHave = { bridges: ['br-s8', 'br-x'], exists: true, bridge: 'br-s8', tag: '10', externalIds: { owner: 's8' } };

test("where the module's command would fail, the failure is said before anything runs", (t) => {
  t.regex(planOpenvswitchPort(tagged, want({ bridge: 'br-s8', port: 'p' }) as OvsPortWant) as string, /has tag 10 and no tag is given.*tag=None.*give tag: 10/);
  t.regex(planOpenvswitchPort(tagged, want({ bridge: 'br-x', port: 'p', tag: 10 }) as OvsPortWant) as string, /a port named p already exists on bridge br-s8/);
  // absent on another bridge: the module's list-ports does not see it, nothing to do.
  t.deepEqual(planOpenvswitchPort(tagged, want({ bridge: 'br-x', port: 'p', state: 'absent' }) as OvsPortWant), []);
  // a null external id that is not there: nothing to remove (the module would run remove every time).
  t.deepEqual(planOpenvswitchPort(tagged, want({ bridge: 'br-s8', port: 'p', tag: 10, external_ids: { gone: null } }) as OvsPortWant), []);
});

test('what has no mapping is refused by name', (t) => {
  t.regex(want({ bridge: 'b', port: 'p', set: 'Bridge b datapath_type=netdev' }) as string, /set: 'Bridge b datapath_type=netdev' \(only 'Interface p COLUMN=VALUE/);
  t.regex(want({ bridge: 'b', port: 'p', set: ['Interface other type=internal'] }) as string, /set: 'Interface other/);
  t.regex(want({ bridge: 'b', port: 'p', set: 'Interface p' }) as string, /set: 'Interface p'/, 'ovs-vsctl set needs a column');
  t.regex(want({ bridge: 'b', port: 'p', set: 'Interface p --if-exists=1' }) as string, /set:/, 'no option words reach ovs-vsctl');
  t.regex(want({ bridge: 'b', port: 'p', database_socket: 'unix:/x' }) as string, /database_socket .* is not built/);
  t.regex(want({ bridge: 'b', port: 'p', timeout: 9 }) as string, /timeout: 9 .* is not built/);
  t.regex(want({ bridge: 'b', port: 'p', tag: 4096 }) as string, /tag: expected a VLAN id between 0 and 4095, got '4096'/);
  t.regex(want({ bridge: 'b', port: 'p', external_ids: { k: 'a\nb' } }) as string, /control characters/);
  t.deepEqual((want({ bridge: 'b', port: 'p', set: 'Interface p type=vxlan options:remote_ip=192.0.2.9,Port p other_config:x=1' }) as OvsPortWant).set,
    [['Interface', 'p', 'type=vxlan', 'options:remote_ip=192.0.2.9'], ['Port', 'p', 'other_config:x=1']], 'a string is a comma-separated list, as AnsibleModule splits it');
});
