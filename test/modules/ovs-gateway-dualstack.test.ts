// ovs_gateway with a dual-stack static uplink, from probe output recorded on a lab host
// (test/roles-lab/uplink-dualstack.test.ts with HW_RECORD_DIR): eth0 holds an IPv4 and an IPv6 address and a
// default route of each family; after the move both are on br-ex; then the IPv6 default route was deleted.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const args = ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', backend: 'ovs' });
const moves = (n: string) => planUplink(probe(n), args).filter(isTxnChange) as TxnChange[];

test('the move records both families: the IPv6 address beside the IPv4 one, the IPv6 default route at metric 48', (t) => {
  const [move] = moves('probe-dualstack-fresh');
  const env = parseEnvText(move!.txn.env!);
  t.regex(env.ADDRS!, /^10\.\d+\.\d+\.11\/24 fd5c:8a::11\/64$/);
  t.regex(env.ROUTES!, /^default via 10\.\d+\.\d+\.1 metric 48;-6 default via fd5c:8a::1 metric 48$/);
  // The rollback puts the IPv6 default route back as it was (metric 1024).
  t.true(parsePrev(move!.txn.prev!)!.routes.includes('-6 default via fd5c:8a::1 metric 1024'));
});

test('a moved dual-stack uplink is converged; a lost IPv6 default route is drift', (t) => {
  t.deepEqual(moves('probe-dualstack-moved'), []);
  const [repair] = moves('probe-dualstack-lost-v6-default');
  t.regex(repair?.summary ?? '', /^re-apply eth0 into br-ex \(route "-6 default via fd5c:8a::1 metric 48" missing on br-ex\)$/);
});
