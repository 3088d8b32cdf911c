// ovs_gateway's default check target, from probe output recorded on a lab VM host (test/vm/ipv6-bond-uplink.test.ts
// with HW_RECORD_DIR): an IPv6-only static uplink (bond0 with fd21:6::11/64 and a default route via fd21:6::1, no
// IPv4 anywhere) had no check target before - its move was checked by its routes alone; now the IPv6 gateway must
// answer. A host moved before that (its env says CHECK='', recorded after the move with the file as the earlier
// run wrote it) is converged: check targets check a move, they are not the host's state.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const args = (o: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'auto', backend: 'ovs', ...o });
const moves = (n: string, o: Record<string, unknown> = {}) => planUplink(probe(n), args(o)).filter(isTxnChange) as TxnChange[];

test('an IPv6-only static uplink: the move is checked by pinging the IPv6 gateway', (t) => {
  const [move] = moves('probe-ipv6-bond-fresh');
  const env = parseEnvText(move!.txn.env!);
  t.is(env.UPLINK, 'bond0');
  t.is(env.ADDRS, 'fd21:6::11/64');
  t.is(env.ROUTES, '-6 default via fd21:6::1 metric 48');
  t.is(env.CHECK, 'fd21:6::1');
  // Given targets win, as before.
  t.is(parseEnvText(moves('probe-ipv6-bond-fresh', { check_targets: ['fd21:6::254'] })[0]!.txn.env!).CHECK, 'fd21:6::254');
});

test('a dual-stack uplink is still checked by its IPv4 gateway alone', (t) => {
  t.is(parseEnvText(moves('probe-dualstack-fresh')[0]!.txn.env!).CHECK, '10.156.67.1');
});

test('a host moved before IPv6-only uplinks had a check target (CHECK=\'\') is converged: nothing is moved again', (t) => {
  const s = probe('probe-ipv6-bond-moved-nocheck');
  t.regex(s.files['/etc/hostwire/configure-ovs/br-ex.env'] ?? '', /^CHECK=''$/m);
  t.deepEqual(moves('probe-ipv6-bond-moved-nocheck'), []);
  // Other check targets alone move nothing either; a real difference in the state still does.
  t.deepEqual(moves('probe-ipv6-bond-moved-nocheck', { check_targets: ['fd21:6::2'] }), []);
  t.regex(moves('probe-ipv6-bond-moved-nocheck', { metric: 47 })[0]?.summary ?? '', /^re-apply bond0 into br-ex \(desired state changed, route "-6 default via fd21:6::1 metric 47" missing on br-ex\)$/);
});
