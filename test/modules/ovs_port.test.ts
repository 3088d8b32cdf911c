import test from 'ava';
import { ovsPortModule, planPort, readPort, type OvsPortArgs } from '../../src/modules/ovs_port/ovs_port.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => ovsPortModule.args.parse(a) as OvsPortArgs;
const want = { bridge: 'br-hw', port: 'gnv0', type: 'geneve', options: { remote_ip: '192.0.2.5', key: 'flow' }, external_ids: { a: 'b' } };

test('recorded probe: port, interface and owning bridge', (t) => {
  const p = readPort(loadCase('ovs_port', 'probe-geneve').stdout);
  t.deepEqual(p, { exists: true, bridge: 'br-hw', type: 'geneve', options: { key: 'flow', remote_ip: '192.0.2.5' }, externalIds: { a: 'b' } });
  t.deepEqual(planPort(p, args(want)), []);
});

test('option drift: changed key set, extra key removed', (t) => {
  const p = readPort(loadCase('ovs_port', 'probe-geneve').stdout);
  const [c] = planPort(p, args({ ...want, options: { remote_ip: '192.0.2.6' } }));
  t.is(c.run[0], `ovs-vsctl --timeout=5 set interface gnv0 'options:remote_ip="192.0.2.6"' -- remove interface gnv0 options '"key"'`);
});

test('absent port is added with its interface settings; on another bridge it is moved', (t) => {
  const p = readPort(loadCase('ovs_port', 'probe-absent').stdout);
  t.false(p.exists);
  const [c] = planPort(p, args(want));
  t.is(c.run[0], `ovs-vsctl --timeout=5 add-port br-hw gnv0 -- set interface gnv0 type=geneve 'options:remote_ip="192.0.2.5"' 'options:key="flow"' -- set port gnv0 'external_ids:a="b"'`);
  const moved = planPort(readPort(loadCase('ovs_port', 'probe-geneve').stdout), args({ ...want, bridge: 'br-ex' }));
  t.regex(moved[0].summary, /move OVS port gnv0 from br-hw to br-ex/);
  t.regex(moved[0].run[0], /del-port gnv0 -- add-port br-ex gnv0/);
});

test('the recorded "no bridge named" error', (t) => {
  t.regex(loadCase('ovs_port', 'no-bridge-error').stderr!, /no bridge named nobr/);
  t.false(ovsPortModule.args.safeParse({ bridge: 'b', port: 'p', type: 'vxlan' }).success, 'a tunnel needs remote_ip');
});
