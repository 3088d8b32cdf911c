// The nm backend with NM's SLAAC or DHCPv6 on a VLAN on a KERNEL-made bond, from the probes recorded on the VM host
// of test/vm/nm-vlan-kbond-ipv6-auto-uplink.test.ts: bond0 (eth1+eth2, active-backup, miimon 100, updelay 200,
// primary eth1) made with ip, its ports unmanaged by NM, NM showing it externally; bond0.100 under NM's own vlan
// profile with 172.31.221.11/24 static and ipv6.method auto, its IPv6 address from the peer's RAs on the VLAN and
// the RA's default route. Before the move: NM makes the bond again under ovs-parent-bond0 (the kernel's options,
// the VLAN's MAC; kept when NM runs it there already, as at boot), the ports under ovs-slave-*, ovs-if-br-ex makes
// the same address (SLAAC: eui64 and the address's identifier as token; DHCPv6: the VLAN's DUID and IAID). After
// the move: the same address on br-ex with the RA's route at metric 48, converged.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { nmUuid } from '../../src/modules/ovs_gateway/nm-profiles.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { prevPath } from '../../src/modules/ovs_gateway/uplink-config.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const args = () => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm' });
const BOND_OPTIONS = 'mode active-backup miimon 100 updelay 200 primary eth1'.split(' ');

/** What each recording holds: the VLAN's address (prefix length), its MAC (the kernel bond's), and what ovs-if-br-ex must carry. */
const KINDS = [
  { kind: 'slaac', addr: 'fd21:100::fe18:330e:647e:562b', len: 64, mac: '22:47:ac:fc:e7:b5',
    env: { TOKENS6: '::fe18:330e:647e:562b', DUID6: '' }, ip6: /ipv6\.method auto ipv6\.addr-gen-mode eui64 ipv6\.token ::fe18:330e:647e:562b /, not: /ipv6\.dhcp-duid/ },
  { kind: 'dhcp6', addr: 'fd21:100::1a1', len: 128, mac: '6e:51:9c:b2:24:f6',
    env: { TOKENS6: '', DUID6: '00:04:61:1c:38:9c:6c:c5:27:66:6a:12:8a:b4:1e:ee:68:df', IAID6: '4075216845' },
    ip6: /ipv6\.method auto ipv6\.dhcp-duid 00:04:61:1c:38:9c:6c:c5:27:66:6a:12:8a:b4:1e:ee:68:df ipv6\.dhcp-iaid f2:e6:df:cd /, not: /ipv6\.token/ },
] as const;

for (const k of KINDS) {
  test(`recorded host with NM's ${k.kind} on a VLAN on a kernel-made bond: the bond made again under ovs-parent-bond0, ovs-if-br-ex keeps the address`, (t) => {
    const s = parseGatewayProbe(caseText(`probe-vlan-kbond-nm-${k.kind}-fresh.txt`));
    t.like(s.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected (externally)' });
    t.like(s.links.find((l) => l.name === 'bond0.100')!.addrs.find((a) => a.local === k.addr), { prefixlen: k.len, dynamic: true }, `NM's ${k.kind} as recorded`);
    const m = (planUplink(s, args()).filter(isTxnChange) as TxnChange[])[0]!;
    t.regex(m.summary, /^move bond0\.100 into br-ex/);
    t.like(parsePrev(m.txn.prev!), { iface: 'bond0.100', method: 'static', addrs: ['172.31.221.11/24'], nmUnmanaged: ['eth1', 'eth2'], v6: { method: 'auto', raDefault: true },
      device: { kind: 'vlan', id: 100, parent: 'bond0', parentBond: { options: [...BOND_OPTIONS], members: ['eth1', 'eth2'] } } });
    const dev = parsePrev(m.txn.prev!)!.device;
    t.true(dev?.kind === 'vlan' && !dev.parentNmConn, 'the bond is the kernel\'s (no profile of NM\'s own recorded)');
    t.like(parseEnvText(m.txn.env!), { METHOD6: 'auto', ...k.env, KIND: 'vlan', VLAN_PARENT: 'bond0', MEMBERS: 'eth1 eth2', BACKEND: 'nm' });
    const nm = m.txn.nm!;
    t.regex(nm, new RegExp(`type ovs-interface con-name ovs-if-br-ex .* ipv4\\.method manual ipv4\\.addresses 172\\.31\\.221\\.11/24 ipv4\\.gateway 172\\.31\\.221\\.1 .*${k.ip6.source}`));
    t.notRegex(nm, k.not);
    t.notRegex(nm, new RegExp(k.addr.replaceAll('.', '\\.')), 'the address is made again or leased again, not set');
    t.regex(nm, new RegExp(`^nmcli connection add type bond con-name ovs-parent-bond0 .*bond\\.options mode=active-backup,miimon=100,updelay=200,primary=eth1 ipv4\\.method disabled ipv6\\.method ignore .*cloned-mac-address ${k.mac} `, 'm'));
    t.regex(nm, new RegExp(`type vlan con-name ovs-if-phys0 .*vlan\\.parent bond0 vlan\\.id 100 .*cloned-mac-address ${k.mac} `));
    t.true(nm.includes('[ $held = 1 ] || nmcli --wait 60 connection up ovs-parent-bond0'), 'a bond NM runs under ovs-parent-bond0 (at boot) is kept');
  });

  test(`recorded host after the nm backend moved the VLAN on a kernel-made bond with NM's ${k.kind}: the bond under ovs-parent-bond0, the same address on br-ex, converged`, (t) => {
    const s = parseGatewayProbe(caseText(`probe-vlan-kbond-nm-${k.kind}-moved.txt`));
    t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0.100']);
    t.like(s.nm.devices.find((d) => d.device === 'bond0'), { state: 'connected', conUuid: nmUuid('ovs-parent-bond0') });
    t.like(s.links.find((l) => l.name === 'br-ex')!.addrs.find((a) => a.local === k.addr), { prefixlen: k.len, dynamic: true }, `the same ${k.kind} address on br-ex`);
    t.like(s.routes.find((r) => r.family === 6 && r.dst === 'default'), { dev: 'br-ex', protocol: 'ra', metric: 48 }, 'the RA\'s default route on br-ex');
    t.like(parsePrev(s.files[prevPath('br-ex')]!), { v6: { method: 'auto' }, nmUnmanaged: ['eth1', 'eth2'], device: { parent: 'bond0', parentBond: { options: [...BOND_OPTIONS] } } });
    t.deepEqual(planUplink(s, args()).filter(isTxnChange), []);
  });
}

test('the same recording with the kernel bond in LACP mode: NM\'s IPv6 from RAs on a VLAN on a kernel-made LACP bond is refused before any change (drilled active-backup only)', (t) => {
  const text = caseText('probe-vlan-kbond-nm-slaac-fresh.txt');
  const s = parseGatewayProbe(text.replace('"mode":"active-backup"', '"mode":"802.3ad"'));
  t.throws(() => planUplink(s, args()), { message: /the uplink bond0\.100 is a VLAN on the kernel-made 802\.3ad bond bond0 with IPv6 from RAs; the nm backend moves .* only so far - use backend: ovs/ });
});
