// The nm backend with NM's SLAAC or DHCPv6 on a VLAN on an LACP bond NetworkManager holds under its own profile,
// from the probes recorded on the VM host of test/vm/nm-vlan-nmbond-ipv6-auto-uplink.test.ts (LACP scenarios):
// bond0.100 on NM's bond0 (802.3ad, lacp_rate fast, layer3+4, eth1+eth2 aggregated with the switch VM), its vlan
// profile with 172.31.221.11/24 static and ipv6.method auto, the IPv6 address from the switch's RAs on the VLAN
// and the RA's default route. Before the move: ovs-if-br-ex makes the same address (SLAAC: eui64 and the
// address's identifier as token; DHCPv6: the VLAN's DUID and IAID), ovs-if-phys0 a vlan profile on bond0, NM's
// LACP bond and its ports untouched. After the move: the same address on br-ex, converged.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { prevPath } from '../../src/modules/ovs_gateway/uplink-config.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const args = () => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm' });
const LACP_OPTIONS = 'mode 802.3ad miimon 100 xmit_hash_policy layer3+4 lacp_rate fast'.split(' ');

/** What each recording holds: the VLAN's address (prefix length), its MAC (eth2's: NM enslaved eth2 first), and what ovs-if-br-ex must carry. */
const KINDS = [
  { kind: 'slaac', addr: 'fd21:100::6b8f:a224:7295:d24b', len: 64, mac: '52:54:02:71:fb:0b',
    env: { TOKENS6: '::6b8f:a224:7295:d24b', DUID6: '' }, ip6: /ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::6b8f:a224:7295:d24b /, not: /ipv6\.dhcp-duid/ },
  { kind: 'dhcp6', addr: 'fd21:100::123', len: 128, mac: '52:54:02:c0:39:0b',
    env: { TOKENS6: '', DUID6: '00:04:a0:31:3a:a4:19:a3:f8:72:37:99:53:e4:13:44:76:a5', IAID6: '4075216845' },
    ip6: /ipv6\.method auto ipv6\.dhcp-duid 00:04:a0:31:3a:a4:19:a3:f8:72:37:99:53:e4:13:44:76:a5 ipv6\.dhcp-iaid f2:e6:df:cd /, not: /ipv6\.token/ },
] as const;

for (const k of KINDS) {
  test(`recorded host with NM's ${k.kind} on a VLAN on NM's own LACP bond: ovs-if-br-ex keeps the address, the vlan profile only, the LACP bond stays NM's`, (t) => {
    const s = parseGatewayProbe(caseText(`probe-vlan-nmlacp-${k.kind}-fresh.txt`));
    t.like(s.links.find((l) => l.name === 'bond0.100')!.addrs.find((a) => a.local === k.addr), { prefixlen: k.len, dynamic: true }, `NM's ${k.kind} as recorded`);
    const m = (planUplink(s, args()).filter(isTxnChange) as TxnChange[])[0]!;
    t.regex(m.summary, /^move bond0\.100 into br-ex/);
    t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: 'static', addrs: ['172.31.221.11/24'], v6: { method: 'auto', raDefault: true },
      device: { kind: 'vlan', id: 100, parent: 'bond0', parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid, parentBond: { options: [...LACP_OPTIONS], members: ['eth1', 'eth2'] } } });
    t.like(parseEnvText(m.txn.env!), { METHOD6: 'auto', ...k.env, BACKEND: 'nm' });
    t.regex(m.txn.nm!, new RegExp(`type ovs-interface con-name ovs-if-br-ex .* ipv4\\.method manual ipv4\\.addresses 172\\.31\\.221\\.11/24 ipv4\\.gateway 172\\.31\\.221\\.1 .*${k.ip6.source}`));
    t.notRegex(m.txn.nm!, k.not);
    t.notRegex(m.txn.nm!, new RegExp(k.addr.replaceAll('.', '\\.')), 'the address is made again or leased again, not set');
    t.regex(m.txn.nm!, new RegExp(`type vlan con-name ovs-if-phys0 .*vlan\\.parent bond0 vlan\\.id 100 .*cloned-mac-address ${k.mac} `));
    t.notRegex(m.txn.nm!, /ovs-parent|ovs-slave|type bond|ip link delete/, 'NM\'s LACP bond and its ports stay as they are');
  });

  test(`recorded host after the nm backend moved the VLAN on NM's own LACP bond with NM's ${k.kind}: the same address on br-ex, converged`, (t) => {
    const s = parseGatewayProbe(caseText(`probe-vlan-nmlacp-${k.kind}-moved.txt`));
    t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0.100']);
    t.like(s.links.find((l) => l.name === 'br-ex')!.addrs.find((a) => a.local === k.addr), { prefixlen: k.len, dynamic: true }, `the same ${k.kind} address on br-ex`);
    t.like(s.routes.find((r) => r.family === 6 && r.dst === 'default'), { dev: 'br-ex', protocol: 'ra', metric: 48 }, 'the RA\'s default route on br-ex');
    t.like(parsePrev(s.files[prevPath('br-ex')]!), { v6: { method: 'auto' }, device: { parentNmConn: s.nm.devices.find((d) => d.device === 'bond0')!.conUuid, parentBond: { options: [...LACP_OPTIONS] } } });
    t.deepEqual(planUplink(s, args()).filter(isTxnChange), []);
  });
}
