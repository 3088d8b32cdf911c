// datapath_type auto, from probe output recorded on lab hosts: an nspawn container (the machine's kernel has
// no openvswitch module: netdev, the kernel's ingress on the uplink dropped) and a VM host (Debian's kernel
// with the module: system).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { resolveDatapath } from '../../src/modules/ovs_gateway/datapath.js';
import { parseEnvText } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { planNoUplink } from '../../src/modules/ovs_gateway/plan-no-uplink.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const envOf = (n: string, o: Record<string, unknown> = {}) => {
  const [move] = planUplink(probe(n), ovsGatewayArgs.parse({ mode: 'uplink', backend: 'ovs', ...o })).filter(isTxnChange) as TxnChange[];
  return parseEnvText(move!.txn.env!);
};

test('auto is the default: netdev in a container without the openvswitch module, with the kernel ingress dropped', (t) => {
  t.is(probe('probe-dualstack-fresh').ovsKernel, 'missing');
  t.like(envOf('probe-dualstack-fresh'), { DATAPATH: 'netdev', DROP_INGRESS: '1' });
  const noUplink = planNoUplink(probe('probe-dualstack-fresh'), ovsGatewayArgs.parse({ mode: 'no_uplink' }));
  t.regex(noUplink.map((c) => c.run.join(' ')).join('\n'), /datapath_type=netdev/);
});

test('auto on a VM host whose kernel has the openvswitch module: system, the kernel ingress left alone', (t) => {
  const s = probe('probe-bond-fresh');
  t.not(s.ovsKernel, 'missing');
  t.like(envOf('probe-bond-fresh', { datapath_type: 'auto' }), { DATAPATH: 'system', DROP_INGRESS: '0' });
});

test('an explicit datapath_type is kept whatever the kernel has; a malformed one is refused', (t) => {
  t.is(resolveDatapath('missing', { datapath_type: 'system' }).datapath_type, 'system');
  t.is(resolveDatapath('loaded', { datapath_type: 'netdev' }).datapath_type, 'netdev');
  t.is(resolveDatapath('available', { datapath_type: 'auto' }).datapath_type, 'system');
  t.like(envOf('probe-dualstack-fresh', { datapath_type: 'system' }), { DATAPATH: 'system', DROP_INGRESS: '0' });
  const bad = ovsGatewayArgs.safeParse({ mode: 'uplink', datapath_type: 'system;reboot' });
  t.false(bad.success);
  t.regex(bad.error?.issues[0]?.message ?? '', /a datapath type: auto, system or netdev/);
});
