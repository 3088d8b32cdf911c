import test from 'ava';
import { ovsFlowsModule, parseDump, planFlows, readFlows, type OvsFlowsArgs } from '../../src/modules/ovs_flows/ovs_flows.js';
import { normalizeFlow, normIpv4 } from '../../src/modules/ovs_flows/normalize.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => ovsFlowsModule.args.parse(a) as OvsFlowsArgs;
const ports = new Map([['p-int', 2], ['vx0', 1]]);

// The flows as a user wrote them (`ovs-ofctl add-flow` input) and as OVS dumped them (cases/dump-cookie.json).
const written = [
  'priority=100,ip,nw_dst=10.0.0.0/24,actions=output:1',
  'table=0,in_port=2,actions=drop',
  'priority=50,dl_type=0x0800,nw_src=10.1.0.0/255.255.0.0,actions=set_field:10.2.0.1->nw_dst,output:p-int',
  'cookie=0x999,priority=200,tcp,tp_dst=80,actions=mod_dl_dst:02:00:00:00:00:02,resubmit(,1)',
  'table=1,priority=10,arp,actions=normal',
  'priority=60,ip,nw_dst=10.3.0.1,actions=load:0x1->NXM_NX_REG0[],goto_table:1',
];

test('every written spelling normalises like its recorded dump line', (t) => {
  const dumped = parseDump(loadCase('ovs_flows', 'dump-cookie').stdout);
  t.is(dumped.length, 6);
  const a = new Set(dumped.map((f) => normalizeFlow(f, ports).canon));
  for (const w of written) t.true(a.has(normalizeFlow(w.replace(/^cookie=0x999,/, ''), ports).canon), w);
});

test('normalisation details', (t) => {
  t.is(normIpv4('10.1.2.3/255.255.0.0'), '10.1.0.0/16');
  t.is(normIpv4('10.1.2.3/32'), '10.1.2.3');
  const f = normalizeFlow('in_port=p-int,actions=drop', ports);
  t.is(f.canon, 'table=0,priority=32768,in_port=2 actions=drop');
  t.is(normalizeFlow('priority=5,udp,actions=CONTROLLER,set_field:0x2->reg1', ports).canon, 'table=0,priority=5,dl_type=0x0800,nw_proto=17 actions=CONTROLLER:65535,load:0x2->NXM_NX_REG1[]');
  t.not(normalizeFlow('priority=5,ip,actions=output:1', ports).canon, normalizeFlow('priority=5,ip,actions=output:2', ports).canon);
});

test('recorded probe: exactly the list -> no change; a changed and a dropped flow', (t) => {
  const c = loadCase('ovs_flows', 'probe-cookie');
  const s = readFlows(c.stdout, 'br-rec');
  t.is(s.ports.get('p-int'), 2);
  const flows = [...written.slice(0, 5), 'priority=61,ip,nw_dst=10.3.0.1,actions=set_field:0x1->reg0,goto_table:1'];
  t.deepEqual(planFlows(s, args({ bridge: 'br-rec', cookie: '0x999', flows })), []);
  const [ch] = planFlows(s, args({ bridge: 'br-rec', cookie: '0x999', flows: [...flows.slice(0, 3), 'table=1,priority=10,arp,actions=drop'] }));
  t.is(ch.summary, 'br-rec cookie=0x999: 0 added, 1 changed, 2 deleted');
  t.deepEqual(ch.run, [
    'ovs-ofctl --strict del-flows br-rec cookie=0x999/-1,table=0,priority=200,dl_type=0x0800,nw_proto=6,tp_dst=80',
    'ovs-ofctl --strict del-flows br-rec cookie=0x999/-1,table=0,priority=61,dl_type=0x0800,nw_dst=10.3.0.1',
    'ovs-ofctl add-flow br-rec cookie=0x999,table=1,priority=10,arp,actions=drop',
  ]);
});

test('errors: no bridge (recorded), foreign cookie in a flow', (t) => {
  t.throws(() => readFlows(loadCase('ovs_flows', 'probe-no-bridge').stdout, 'nobr'), { message: /no bridge named nobr/ });
  const s = readFlows(loadCase('ovs_flows', 'probe-cookie').stdout, 'br-rec');
  t.throws(() => planFlows(s, args({ bridge: 'br-rec', cookie: 0x999, flows: ['cookie=0x5,actions=drop'] })), { message: /carries cookie=0x5/ });
});
