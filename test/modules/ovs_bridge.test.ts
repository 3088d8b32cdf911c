import test from 'ava';
import { ovsBridgeModule, planBridge, readBridge, type OvsBridgeArgs } from '../../src/modules/ovs_bridge/ovs_bridge.js';
import { parseOvsTable, parseOvsTables } from '../../src/modules/kit/ovsdb.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => ovsBridgeModule.args.parse(a) as OvsBridgeArgs;

test('parses ovs-vsctl JSON maps, sets and empty results', (t) => {
  const [row] = parseOvsTable(loadCase('ovs_bridge', 'bridge-present').stdout);
  t.deepEqual(row, { name: 'br-rec', datapath_type: 'netdev', fail_mode: 'secure', other_config: { hwaddr: '02:00:00:00:00:01' }, external_ids: { owner: 'hostwire' } });
  t.deepEqual(parseOvsTable(loadCase('ovs_bridge', 'bridge-absent').stdout), []);
  const [, , bridges] = parseOvsTables(loadCase('ovs_port', 'port-vxlan').stdout);
  t.is((bridges[0].ports as string[]).length, 3);
  const [one] = parseOvsTable(loadCase('ovs_port', 'single-port-bridge').stdout);
  t.deepEqual(one.ports, 'cff2ffd2-87ef-4386-ac7f-d5117248016d', 'a one-element set is a bare atom');
});

test('recorded probe: converged bridge plans nothing; drift is set back', (t) => {
  const row = readBridge(loadCase('ovs_bridge', 'probe-present').stdout);
  const want = { bridge: 'br-hw', datapath_type: 'netdev', fail_mode: 'secure', other_config: { hwaddr: '02:00:00:00:00:09' }, external_ids: { owner: 'hw' } };
  t.deepEqual(planBridge(row, args(want)), []);
  const [c] = planBridge(row, args({ ...want, fail_mode: 'standalone', external_ids: { owner: 'other', n: 2 } }));
  t.is(c.run[0], `ovs-vsctl --timeout=5 set bridge br-hw fail_mode=standalone 'external_ids:owner="other"' 'external_ids:n="2"'`);
  t.regex(c.before!, /fail_mode=secure/);
  t.regex(c.after!, /fail_mode=standalone/);
});

test('absent bridge: created with datapath_type in the same transaction', (t) => {
  const row = readBridge(loadCase('ovs_bridge', 'probe-absent').stdout);
  t.is(row, undefined);
  const [c] = planBridge(row, args({ bridge: 'br-none', datapath_type: 'netdev' }));
  t.is(c.run[0], `ovs-vsctl --timeout=5 add-br br-none -- set bridge br-none 'datapath_type="netdev"'`);
  t.deepEqual(planBridge(row, args({ bridge: 'br-none', state: 'absent' })), []);
});

test('OVS stopped and ovs-vsctl missing are clear failures', (t) => {
  t.throws(() => readBridge(loadCase('ovs_bridge', 'probe-ovs-stopped').stdout), { message: /Open vSwitch is not running .*database connection failed/ });
  t.throws(() => readBridge("::missing ovs-vsctl\n::sec bridge\nsh: 1: ovs-vsctl: not found\n::rc 127\n"), { message: /install the package openvswitch-switch/ });
});
