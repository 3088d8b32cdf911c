// A default route with a preferred source (src) and per-route mtu/advmss moves with them, both families, both
// backends, at the bridge's metric (a multi-homed host pins its source address, a jumbo-frame fabric sets the
// default route's mtu): ovs: the words in br-ex.env's ROUTES; nm: a 0.0.0.0/0 (::/0) route of ovs-if-br-ex's
// ipv4/ipv6.routes with src=/mtu=/advmss= instead of ipv4/ipv6.gateway, which takes no attributes (NM documents
// the manual /0 route as the gateway's alternative). A default route that lost them is drift. Recorded on
// nspawn lab hosts (Debian 12, iproute2 6.1; nm: --nm-ovs, NM 1.42.4) by test/roles-lab/uplink-route-attrs.test.ts
// (HW_RECORD_DIR): on eth0 `default via GW src HOST mtu 1450 advmss 1410` and `default via fd5c:8a::1 src
// fd5c:8a::11 metric 1024 mtu 1450 advmss 1390` beside 10.20.0.0/16 and fd5c:99::/48 with theirs;
// probe-route-defaults-{ovs,nm}-fresh before the move, -moved after it, -drift with both default routes
// replaced on br-ex without their attributes (and the 10.20 one too, the fd5c:99 one deleted).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { unmovable } from '../../src/modules/ovs_gateway/uplink-unmovable.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const planOf = (s: GatewayState, backend: 'ovs' | 'nm') =>
  planUplink(s, ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', backend })).filter(isTxnChange) as TxnChange[];

test('recorded host (ovs): both default routes move with src, mtu and advmss at metric 48; the .prev keeps them as they were', (t) => {
  const s = probe('probe-route-defaults-ovs-fresh');
  t.deepEqual(unmovable(s, 'eth0', false), []);
  const [move] = planOf(s, 'ovs');
  const routes = parseEnvText(move!.txn.env!).ROUTES!.split(';');
  t.deepEqual(routes.filter((r) => r.includes('default')), [
    'default via 10.111.150.1 src 10.111.150.11 mtu 1450 advmss 1410 metric 48', '-6 default via fd5c:8a::1 src fd5c:8a::11 mtu 1450 advmss 1390 metric 48']);
  t.deepEqual(parsePrev(move!.txn.prev!)!.routes.filter((r) => r.includes('default')), [
    'default via 10.111.150.1 src 10.111.150.11 mtu 1450 advmss 1410', '-6 default via fd5c:8a::1 metric 1024 src fd5c:8a::11 mtu 1450 advmss 1390']);
});

test('recorded host (ovs): moved is converged; default routes that lost their attributes are drift, each named', (t) => {
  t.deepEqual(planOf(probe('probe-route-defaults-ovs-moved'), 'ovs'), []);
  const [repair] = planOf(probe('probe-route-defaults-ovs-drift'), 'ovs');
  t.regex(repair?.summary ?? '', /route "default via 10\.111\.150\.1 src 10\.111\.150\.11 mtu 1450 advmss 1410 metric 48" on br-ex differs \(now: src none, mtu none, advmss none\)/);
  t.regex(repair?.summary ?? '', /route "-6 default via fd5c:8a::1 src fd5c:8a::11 mtu 1450 advmss 1390 metric 48" on br-ex differs \(now: src none, mtu none, advmss none\)/);
  t.regex(repair?.summary ?? '', /route "fd5c:99::\/48 [^"]+" missing on br-ex/);
});

test('recorded host (nm): the default routes are /0 routes of ipv4/ipv6.routes with their attributes, no ipv4/ipv6.gateway', (t) => {
  const [move] = planOf(probe('probe-route-defaults-nm-fresh'), 'nm');
  const nm = move!.txn.nm!;
  t.is(/ipv4\.routes '([^']*)'/.exec(nm)?.[1], '0.0.0.0/0 10.112.10.1 48 src=10.112.10.11 mtu=1450 advmss=1410, 10.20.0.0/16 10.112.10.1 200 src=10.112.10.11 mtu=1400 advmss=1360');
  t.is(/ipv6\.routes '([^']*)'/.exec(nm)?.[1], '::/0 fd5c:8a::1 48 src=fd5c:8a::11 mtu=1450 advmss=1390, fd5c:99::/48 fd5c:8a::1 300 src=fd5c:8a::11 mtu=1400 advmss=1340');
  t.notRegex(nm, /ipv[46]\.gateway/);
});

test('recorded host (nm, NM\'s routes proto static): moved is converged; default routes that lost their attributes are drift', (t) => {
  t.deepEqual(planOf(probe('probe-route-defaults-nm-moved'), 'nm'), []);
  const [repair] = planOf(probe('probe-route-defaults-nm-drift'), 'nm');
  t.regex(repair?.summary ?? '', /route "default via 10\.112\.10\.1 src 10\.112\.10\.11 mtu 1450 advmss 1410 metric 48" on br-ex differs \(now: src none, mtu none, advmss none\)/);
  t.regex(repair?.summary ?? '', /route "-6 default via fd5c:8a::1 src fd5c:8a::11 mtu 1450 advmss 1390 metric 48" on br-ex differs \(now: src none, mtu none, advmss none\)/);
});

test('a default route without attributes is NM\'s ipv4/ipv6.gateway as before (no /0 route)', (t) => {
  const [move] = planOf(probe('probe-route-attrs-nm-fresh'), 'nm');
  t.regex(move!.txn.nm!, / ipv4\.gateway 10\.167\.102\.1 /);
  t.regex(move!.txn.nm!, / ipv6\.gateway fd5c:8a::1 /);
  t.notRegex(move!.txn.nm!, /0\.0\.0\.0\/0|::\/0/);
});

test('what a default route has beyond src, mtu and advmss is still refused, naming it: a locked metric, rtt, a realm', (t) => {
  const s = probe('probe-route-defaults-ovs-fresh');
  const def4 = (extra: object): GatewayState => ({ ...s, routes: s.routes.map((r) => (r.dst === 'default' && r.family === 4 ? { ...r, ...extra } : r)) });
  t.deepEqual(unmovable({ ...s, lockedRoutes: [{ family: 4, dst: 'default', dev: 'eth0', locked: ['mtu'] }] }, 'eth0', false),
    ['the route "default" (IPv4) on "eth0" has "mtu lock"']);
  t.deepEqual(unmovable(def4({ metrics: [{ mtu: 1450, rtt: 10 }] }), 'eth0', false), ['the route "default" (IPv4) on "eth0" has "metric rtt"']);
  t.deepEqual(unmovable(def4({ flow: { to: '5' } }), 'eth0', false), ['the route "default" (IPv4) on "eth0" has "flow"']);
  t.throws(() => planOf(def4({ metrics: [{ mtu: 1450, window: 1000 }] }), 'nm'), { message: /the route "default" \(IPv4\) on "eth0" has "metric window"/ });
});
