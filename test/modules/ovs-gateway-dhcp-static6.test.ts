// A DHCPv4 uplink with a static IPv6 address beside the lease (NM profile ipv4.method auto, ipv6.method manual
// with an address, a gateway and a route), recorded on the lab host of test/roles-lab/uplink-dhcp-static6.test.ts:
// the lease's address and its IPv4 default route are left to DHCP, the static IPv6 address, its default route
// (at the bridge's metric) and the static route move - on both backends (they were dropped: a lease's addresses
// were all left to DHCP, and the move failed on the IPv6 route that had no address to go through).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const args = (backend: 'ovs' | 'nm') => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'netdev', backend });
const plan = (s: GatewayState, backend: 'ovs' | 'nm') => planUplink(s, args(backend)).filter(isTxnChange) as TxnChange[];
const GW = '10.123.186.1';

test('recorded DHCPv4 + static IPv6 uplink, ovs backend: the static IPv6 address and routes move, the lease stays DHCP\'s', (t) => {
  const [move] = plan(probe('probe-dhcp-static6-fresh'), 'ovs');
  const env = parseEnvText(move!.txn.env!);
  t.like(env, { METHOD: 'dhcp', ADDRS: 'fd5c:8b::11/64', CHECK: GW });
  t.deepEqual(env.ROUTES!.split(';'), ['fd5c:98::/48 via fd5c:8b::1 metric 300', '-6 default via fd5c:8b::1 metric 48'], 'the lease\'s own default route is not among them');
  const prev = parsePrev(move!.txn.prev!)!;
  t.like(prev, { method: 'dhcp', addrs: ['fd5c:8b::11/64'], gateways: [GW, 'fd5c:8b::1'] });
  t.deepEqual(prev.routes, ['fd5c:98::/48 via fd5c:8b::1 metric 300', '-6 default via fd5c:8b::1 metric 100'], 'the reverse move puts them back as they were');
});

test('recorded DHCPv4 + static IPv6 uplink, nm backend (NM with its OVS plugin): ovs-if-br-ex takes DHCPv4 and the static IPv6 address, gateway and route; moved, converged', (t) => {
  for (const fresh of ['probe-dhcp-static6-fresh', 'probe-dhcp-static6-nmovs-fresh']) {
    const [move] = plan(probe(fresh), 'nm');
    const nm = move!.txn.nm!;
    t.regex(nm, / ipv4\.method auto ipv4\.dhcp-client-id mac /, fresh);
    t.regex(nm, / ipv6\.method manual ipv6\.addresses fd5c:8b::11\/64 ipv6\.gateway fd5c:8b::1 ipv6\.routes 'fd5c:98::\/48 fd5c:8b::1 300' /, fresh);
    t.regex(nm, / ipv4\.may-fail no ipv6\.may-fail no /, fresh);
  }
  t.deepEqual(plan(probe('probe-dhcp-static6-nmovs-moved'), 'nm'), []);
});

test('recorded ovs-backend host, moved: converged (lease, static IPv6 address and routes on br-ex); the address lost from br-ex is drift', (t) => {
  t.deepEqual(plan(probe('probe-dhcp-static6-moved'), 'ovs'), []);
  const [repair] = plan(probe('probe-dhcp-static6-lost-addr'), 'ovs');
  t.regex(repair!.summary, /^re-apply eth0 into br-ex \(fd5c:8b::11\/64 missing on br-ex/);
  t.is(repair!.txn.prev, undefined, 'a re-apply keeps the saved .prev');
});
