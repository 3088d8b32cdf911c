// ovs_gateway (ovs backend) on a VLAN on a kernel-made bond whose IPv6 comes from router advertisements, from
// probe output recorded on the VM host of test/vm/vlan-bond-ipv6-auto-uplink.test.ts (HW_RECORD_DIR): bond0.100
// on the kernel's active-backup bond0 (eth1+eth2), a static IPv4 address, and the kernel's own SLAAC address
// (dynamic mngtmpaddr, EUI-64) or NM's DHCPv6 lease (the VLAN an NM profile, ipv6.method auto); then the SLAAC
// host after the move (networkd's token address and the RA's default route at metric 48 on br-ex).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const args = ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'ovs' });
const move = (n: string) => (planUplink(probe(n), args).filter(isTxnChange) as TxnChange[])[0]!;
const VLAN_ENV = { KIND: 'vlan', VLAN_ID: '100', VLAN_PROTO: '802.1Q', VLAN_PARENT: 'bond0', BOND_OPTS: 'mode active-backup miimon 100 updelay 200 primary eth1', MEMBERS: 'eth1 eth2' };

test('the kernel\'s SLAAC on a VLAN on a kernel-made bond: the VLAN with its bond moves, the EUI-64 identifier is the token, the static IPv4 copied', (t) => {
  const m = move('probe-vlan-kbond-slaac-fresh');
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  const env = parseEnvText(m.txn.env!);
  t.like(env, { UPLINK: 'bond0.100', MAC: '42:d1:9f:fe:43:3f', ADDRS: '172.31.221.11/24', ROUTES: 'default via 172.31.221.1 metric 48', ...VLAN_ENV });
  t.deepEqual([env.METHOD6, env.TOKENS6, env.DUID6, env.IAID6], ['auto', '::40d1:9fff:fefe:433f', '', ''], 'the SLAAC address is made again, not copied');
  t.false('DEFAULT6' in env, 'RAs give the default route');
  const prev = parsePrev(m.txn.prev!)!;
  t.deepEqual(prev.v6, { method: 'auto', tokens: ['::40d1:9fff:fefe:433f'], raDefault: true });
  t.is(prev.nmConn, undefined, 'no NM profile held the VLAN: the rollback gives it back to the kernel\'s SLAAC');
});

test('moved (the same SLAAC address and the RA route at metric 48 on br-ex, bond0.100 its port): converged', (t) => {
  const s = probe('probe-vlan-kbond-slaac-moved');
  t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0.100']);
  t.deepEqual(planUplink(s, args).filter(isTxnChange), []);
});

test('NM\'s DHCPv6 on its VLAN profile over a kernel-made bond: no token, the DUID and IAID of NM\'s lease, the rollback re-activates the profile', (t) => {
  const m = move('probe-vlan-kbond-dhcp6-fresh');
  const env = parseEnvText(m.txn.env!);
  t.like(env, { UPLINK: 'bond0.100', ADDRS: '172.31.221.11/24', ...VLAN_ENV });
  t.deepEqual([env.METHOD6, env.TOKENS6, env.DUID6, env.IAID6], ['auto', '', '00:04:24:e6:27:11:e9:ac:02:97:db:11:2a:98:09:5a:61:b6', '4075216845']);
  t.is(parsePrev(m.txn.prev!)!.nmConn, '2b07af88-4046-4c8c-97c9-1697075482ba');
});
