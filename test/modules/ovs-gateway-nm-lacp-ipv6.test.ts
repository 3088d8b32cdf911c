// The nm backend with an LACP bond whose IPv6 comes from RAs, against the probes recorded on VM hosts whose NM
// 1.42 has its OVS plugin (test/vm/nm-bond-lacp-ipv6-auto-uplink.test.ts, HW_RECORD_DIR;
// cases/probe-nm-lacp-*.txt): bond0 (eth1+eth2, 802.3ad, lacp_rate fast, xmit_hash_policy layer3+4,
// aggregated with the switch VM) made by NM profiles, IPv4 static, NM's own SLAAC (stable-privacy) or NM's
// DHCPv6 lease (RAs saying managed), and the RA's default route. Moved as the active-backup bond is: the bond
// again under ovs-port-phys0 with the live bond's LACP options, ovs-if-br-ex making the same SLAAC address from
// its identifier or sending the bond's DUID and IAID, the ports under way before it.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/probe-nm-lacp-${n}.txt`, import.meta.url), 'utf8'));
const NM = ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm' });
const move = (s: GatewayState) => (planUplink(s, NM).filter(isTxnChange) as TxnChange[])[0]!;
const line = (nm: string, con: string) => nm.split('\n').find((l) => l.includes(`con-name ${con} `))!;

/** The move's NM script as both recorded LACP probes must have it: the bond's LACP options, no IP on it, ports first. */
function assertLacpMove(t: import('ava').ExecutionContext, m: TxnChange, ip: string): string {
  t.regex(m.summary, /^move bond0 into br-ex/);
  const nm = m.txn.nm!;
  const bond = line(nm, 'ovs-if-phys0');
  t.regex(bond, / type bond /);
  t.regex(bond, /bond\.options [^ ]*mode=802\.3ad/, bond);
  for (const o of ['lacp_rate=fast', 'miimon=100', 'xmit_hash_policy=layer3\\+4']) t.regex(bond, new RegExp(`bond\\.options [^ ]*${o}`), `the live bond's ${o}`);
  t.notRegex(bond, /ipv[46]\./, 'no IP settings on the bond under the port');
  t.regex(nm, / connection up ovs-slave-eth2 ;; esac; } >[^\n]* & ports=\$!\nnmcli --wait 60 connection up ovs-if-br-ex /, 'the bond\'s ports under way before ovs-if-br-ex (its IPv6 needs the carrier)');
  const ifBr = line(nm, 'ovs-if-br-ex');
  t.regex(ifBr, new RegExp(` ipv4\\.method manual ipv4\\.addresses ${ip.replaceAll('.', '\\.')}\\.11/24 ipv4\\.gateway ${ip.replaceAll('.', '\\.')}\\.1 `));
  return ifBr;
}

test('recorded NM-made LACP bond with SLAAC: moved with its LACP options, ovs-if-br-ex making the same address from its identifier', (t) => {
  const s = probe('slaac-fresh');
  const bond0 = s.links.find((l) => l.name === 'bond0')!;
  t.like(bond0.addrs.find((a) => a.local === 'fd26:63::942a:24af:4e2:1f6c'), { prefixlen: 64, dynamic: true }, 'NM\'s SLAAC on the bond as recorded');
  t.like(bond0.info, { mode: '802.3ad' });
  const m = move(s);
  const ifBr = assertLacpMove(t, m, '10.130.155');
  t.regex(ifBr, / ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::942a:24af:4e2:1f6c /, 'the stable-privacy address\'s identifier as token');
  t.notRegex(ifBr, /ipv6\.addresses|ipv6\.dhcp-duid/, 'SLAAC: no static IPv6, no DHCPv6 identity');
  t.like(parseEnvText(m.txn.env!), { METHOD6: 'auto', TOKENS6: '::942a:24af:4e2:1f6c', DUID6: '', ADDRS: '10.130.155.11/24', BACKEND: 'nm' });
  const prev = parsePrev(m.txn.prev!)!;
  t.is(prev.nmConn, '5e171e9a-b3dc-415d-9d0b-df088e7441eb', 'NM\'s bond profile, re-activated on rollback');
  t.deepEqual([prev.device?.kind, prev.v6?.method, prev.v6?.raDefault], ['bond', 'auto', true]);
});

test('recorded NM-made LACP bond with a DHCPv6 lease: moved with its LACP options, ovs-if-br-ex sending the bond\'s DUID and IAID', (t) => {
  const s = probe('dhcp6-fresh');
  t.like(s.nmDhcp6?.bond0, { duid: '00:04:10:51:9b:fa:2e:f9:90:75:27:dd:19:48:b5:6e:9e:7f', addrs: ['fd26:64::171'] });
  const m = move(s);
  const ifBr = assertLacpMove(t, m, '10.189.203');
  t.regex(ifBr, / ipv6\.method auto ipv6\.dhcp-duid 00:04:10:51:9b:fa:2e:f9:90:75:27:dd:19:48:b5:6e:9e:7f ipv6\.dhcp-iaid 5b:38:bd:1e /);
  t.notRegex(ifBr, /ipv6\.token|ipv6\.addresses/, 'no SLAAC address to keep, the lease is not static');
  t.like(parseEnvText(m.txn.env!), { METHOD6: 'auto', TOKENS6: '', DUID6: '00:04:10:51:9b:fa:2e:f9:90:75:27:dd:19:48:b5:6e:9e:7f', IAID6: String(0x5b38bd1e) });
  t.is(parsePrev(m.txn.prev!)!.nmConn, 'b64d467c-f4e8-4420-a327-70bb4e3393b8');
});

test('recorded after the move (the same SLAAC address on br-ex, our seven profiles on the LACP bond): nothing to do', (t) => {
  const s = probe('slaac-moved');
  t.like(s.links.find((l) => l.name === 'br-ex')!.addrs.find((a) => a.local === 'fd26:63::d81a:d63b:dedc:5816'), { prefixlen: 64, dynamic: true }, 'the bond\'s SLAAC address on br-ex');
  t.like(s.links.find((l) => l.name === 'bond0')!.info, { mode: '802.3ad' });
  t.deepEqual(planUplink(s, NM).filter(isTxnChange).map((c) => c.summary), [], 'converged');
});
