// The nm backend with a bond whose IPv6 comes from RAs, against the probe recorded on a VM host whose NM 1.42
// has its OVS plugin (test/vm/nm-bond-ipv6-auto-uplink.test.ts, HW_RECORD_DIR; cases/probe-nm-bond-*.txt):
// bond0 (eth1+eth2, active-backup) made by NM profiles, IPv4 static, NM's own SLAAC (a stable-privacy address,
// dynamic noprefixroute) or NM's DHCPv6 lease (RAs saying managed), and the RA's default route. No longer
// refused: ovs-if-br-ex makes the same address from its interface identifier (eui64 + token) or sends the
// bond's DUID and IAID, its ports under way before it; once moved, nothing to do. Still refused as on a NIC: the
// kernel's own SLAAC (no NM profile), several SLAAC addresses; and bond modes the nm backend does not move.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe, type GatewayState } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n = 'slaac-fresh') => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/probe-nm-bond-${n}.txt`, import.meta.url), 'utf8'));
const NM = ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm' });
const move = (s: GatewayState) => (planUplink(s, NM).filter(isTxnChange) as TxnChange[])[0]!;
const bond0 = (s: GatewayState) => s.links.find((l) => l.name === 'bond0')!;
const SLAAC = 'fd26:61::7d07:7d88:a911:919f';

test('recorded NM-made bond with SLAAC: moved, ovs-if-br-ex making the same address from its identifier, the ports first', (t) => {
  const s = probe();
  t.like(bond0(s).addrs.find((a) => a.local === SLAAC), { prefixlen: 64, dynamic: true }, 'NM\'s SLAAC on the bond as recorded');
  const m = move(s);
  t.regex(m.summary, /^move bond0 into br-ex/);
  const nm = m.txn.nm!;
  const ifBr = nm.split('\n').find((l) => l.includes('con-name ovs-if-br-ex'))!;
  t.regex(ifBr, / ipv4\.method manual ipv4\.addresses 10\.128\.93\.11\/24 ipv4\.gateway 10\.128\.93\.1 /);
  t.regex(ifBr, / ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::7d07:7d88:a911:919f /, 'the stable-privacy address\'s identifier as token');
  t.regex(ifBr, / ipv4\.may-fail no ipv6\.may-fail no ipv4\.route-metric 48 ipv6\.route-metric 48 /);
  t.notRegex(ifBr, /ipv6\.addresses|ipv6\.dhcp-duid/, 'SLAAC: no static IPv6, no DHCPv6 identity');
  t.regex(nm, / connection up ovs-slave-eth2 ;; esac; } >[^\n]* & ports=\$!\nnmcli --wait 60 connection up ovs-if-br-ex /, 'the bond\'s ports under way before ovs-if-br-ex (its IPv6 needs the carrier)');
  t.notRegex(nm.split('\n').find((l) => l.includes('type bond con-name ovs-if-phys0'))!, /ipv[46]\./, 'no IP settings on the bond under the port');
  const env = parseEnvText(m.txn.env!);
  t.like(env, { METHOD6: 'auto', TOKENS6: '::7d07:7d88:a911:919f', DUID6: '', ADDRS: '10.128.93.11/24', BACKEND: 'nm' });
  const prev = parsePrev(m.txn.prev!)!;
  t.is(prev.nmConn, '66a1c4fc-710c-406b-8b05-fc8d3de6da9f', 'NM\'s bond profile, re-activated on rollback');
  t.deepEqual([prev.device?.kind, prev.v6?.method, prev.v6?.raDefault], ['bond', 'auto', true]);
  t.deepEqual(prev.addrs, ['10.128.93.11/24'], 'the SLAAC address is not a static one');
});

test('still refused on a bond, as on a NIC: the kernel\'s SLAAC, two SLAAC addresses; other bond modes', (t) => {
  const kernel = probe();
  kernel.nm.devices = kernel.nm.devices.map((d) => (d.device === 'bond0' ? { ...d, state: 'connected (externally)' } : d));
  t.throws(() => planUplink(kernel, NM), { message: /the uplink bond0's IPv6 comes from the kernel's own SLAAC \(no NetworkManager profile\); the nm backend moves .* - use backend: ovs/ });
  const two = probe();
  bond0(two).addrs.push({ family: 'inet6', local: 'fd26:61::1234:5678:9abc:def0', prefixlen: 64, scope: 'global', dynamic: true });
  t.throws(() => planUplink(two, NM), { message: /the uplink bond0's IPv6 comes from 2 SLAAC addresses \(NetworkManager takes one ipv6\.token\)/ });
  const rr = probe();
  bond0(rr).info = { ...bond0(rr).info, mode: 'balance-rr' };
  t.throws(() => planUplink(rr, NM), { message: /the uplink bond0 is a balance-rr bond; the nm backend moves LACP \(802\.3ad\) and active-backup bonds only so far/ });
});

test('recorded NM-made bond with a DHCPv6 lease: moved, ovs-if-br-ex sending the bond\'s DUID and IAID', (t) => {
  const s = probe('dhcp6-fresh');
  t.like(s.nmDhcp6?.bond0, { duid: '00:04:7d:5d:97:04:3a:ec:ad:a0:a3:8a:1f:10:5a:44:12:de', addrs: ['fd26:62::162'] });
  const m = move(s);
  const ifBr = m.txn.nm!.split('\n').find((l) => l.includes('con-name ovs-if-br-ex'))!;
  t.regex(ifBr, / ipv6\.method auto ipv6\.dhcp-duid 00:04:7d:5d:97:04:3a:ec:ad:a0:a3:8a:1f:10:5a:44:12:de ipv6\.dhcp-iaid 5b:38:bd:1e ipv4\.may-fail no ipv6\.may-fail no /);
  t.notRegex(ifBr, /ipv6\.token|ipv6\.addresses/, 'no SLAAC address to keep, the lease is not static');
  t.like(parseEnvText(m.txn.env!), { METHOD6: 'auto', TOKENS6: '', DUID6: '00:04:7d:5d:97:04:3a:ec:ad:a0:a3:8a:1f:10:5a:44:12:de', IAID6: String(0x5b38bd1e) });
  t.is(parsePrev(m.txn.prev!)!.nmConn, 'c11a5c67-74ad-435b-af4f-51a083c561c4');
});

test('recorded after the move (the same address on br-ex, our seven profiles): nothing to do', (t) => {
  for (const [kind, addr, len] of [['slaac', SLAAC, 64], ['dhcp6', 'fd26:62::162', 128]] as const) {
    const s = probe(`${kind}-moved`);
    t.like(s.links.find((l) => l.name === 'br-ex')!.addrs.find((a) => a.local === addr), { prefixlen: len, dynamic: true }, `the bond's ${kind} address on br-ex`);
    // The host's helper script was recorded before later script changes: only the move's transaction counts here.
    t.deepEqual(planUplink(s, NM).filter(isTxnChange).map((c) => c.summary), [], kind);
  }
});
