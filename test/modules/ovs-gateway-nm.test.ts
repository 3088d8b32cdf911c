// The NetworkManager backend's nmcli commands against NM output recorded on a lab host whose NM 1.42 has
// its OVS plugin (`lab up --nm-ovs`; the uplink a veth eth9 so the session stays up): every planned
// `connection add` succeeded, NM stored exactly the properties we meant (masters by UUID), and the
// activation brought the whole set up on the netdev datapath with the NIC's MAC on br-ex.
import test from 'ava';
import { readFileSync } from 'node:fs';
import type { BridgeEnv, UplinkConfig } from '../../src/modules/ovs_gateway/env.js';
import { nmUuid, planNmDown, planNmProfiles, planNmUp } from '../../src/modules/ovs_gateway/nm-profiles.js';
import { props, sections } from '../helpers/nm-backend.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');

// The inputs the recording was made with (lab host updev-1).
const u: UplinkConfig = { iface: 'eth9', mac: '5e:25:10:7d:58:14', mtu: 1500, method: 'static', addrs: ['10.138.160.11/24'], routes: ['default via 10.138.160.1'], gateways: ['10.138.160.1'] };
const e: BridgeEnv = { bridge: 'br-ex', uplink: 'eth9', mac: u.mac, mtu: 1500, method: 'static', addrs: u.addrs, routes: ['default via 10.138.160.1 metric 48'], metric: 48, datapath: 'netdev', dropIngress: true, check: [], backend: 'nm' };

test('the planned profile set is the one that was recorded (MCO names, masters by UUID, save no)', (t) => {
  const text = caseText('nm-static-br-ex.commands.sh');
  const recorded = text.split('\n').filter((l) => l.startsWith('echo "@@cmd"')).map((l) => l.replace(/^echo "@@cmd"; /, '').replace(/ 2>&1; echo "@@rc \$\?"$/, ''));
  const up = planNmUp(u, e, true);
  t.deepEqual(up.slice(0, 5), recorded);
  t.true(up.slice(0, 5).every((c) => c.endsWith(' save no')));
  t.true(text.includes(`echo "@@up"; ( ${up.slice(5).join('\n')}\n) 2>&1`), 'the activation recorded is the planned one');
  t.is(nmUuid('ovs-port-phys0'), '4fd0e16c-56f8-4a51-969d-e2c6a7230452');
});

test('NM accepted every command and stored the copied IP config, MAC, MTU, metric 48 and may-fail no', (t) => {
  const s = sections(caseText('nm-static-br-ex.txt'));
  t.is(caseText('nm-static-br-ex.txt').split('@@rc 0').length - 1, 6);
  const names = s.get('show')!.map((l) => l.split(':').slice(0, 2).join(':'));
  for (const n of ['br-ex:ovs-bridge', 'ovs-port-br-ex:ovs-port', 'ovs-port-phys0:ovs-port', 'ovs-if-phys0:802-3-ethernet', 'ovs-if-br-ex:ovs-interface']) t.true(names.includes(n), n);
  const ifbr = props(s.get('ifbr')!);
  t.like(ifbr, { 'ipv4.method': 'manual', 'ipv4.addresses': u.addrs.join(','), 'ipv4.gateway': '10.138.160.1', 'ipv4.route-metric': String(e.metric), 'ipv4.may-fail': 'no', '802-3-ethernet.mtu': String(e.mtu) });
  t.is(ifbr['802-3-ethernet.cloned-mac-address'], '', 'netdev: the MAC comes from the bridge, not a cloned MAC');
  t.is(ifbr['ipv4.dns'], '10.138.160.1');
  t.like(props(s.get('ifphys')!), { 'connection.master': nmUuid('ovs-port-phys0'), 'connection.autoconnect-priority': '100' });
  t.true(s.get('props')!.includes(`ovs-bridge.datapath-type:${e.datapath}`));
  t.true(s.get('props')!.includes(`connection.master:${nmUuid('br-ex')}`));
});

test('with the plugin the set activates on the netdev datapath with the NIC MAC; down deletes it all', (t) => {
  const s = sections(caseText('nm-static-br-ex.txt'));
  t.regex(s.get('up')!.join('\n'), /Connection successfully activated[\s\S]*@@rc 0/);
  const active = s.get('active')!.join('\n');
  for (const l of ['br-ex:ovs-bridge:br-ex', 'ovs-if-br-ex:ovs-interface:br-ex', 'ovs-if-phys0:802-3-ethernet:eth9', 'ovs-port-br-ex:ovs-port:br-ex', 'ovs-port-phys0:ovs-port:eth9']) t.true(active.includes(l), l);
  t.regex(active, /^netdev\neth9\n10\.138\.160\.11\/24\n5e:25:10:7d:58:14\ndefault via 10\.138\.160\.1 proto static metric 48 *\nyes$/m);
  t.is(s.get('down')!.filter((l) => /successfully deleted/.test(l)).length, 6, 'the five profiles and the tap NM had made a profile for');
  t.false(s.get('down')!.some((l) => /^(ovs-|br-ex$)/.test(l)));
  t.regex(planNmDown(e, true)[0]!, /^nmcli connection delete ovs-if-br-ex ovs-if-phys0 ovs-port-phys0 ovs-port-br-ex br-ex /);
});

test('DHCP copies the method with a MAC client id; the staged script copies the old profile DNS', (t) => {
  const d = planNmUp({ ...u, method: 'dhcp', addrs: [], nmConn: 'abc' }, { ...e, method: 'dhcp', addrs: [] }, true);
  t.regex(d[4]!, /ipv4\.method auto ipv4\.dhcp-client-id mac/);
  t.regex(planNmUp(u, { ...e, datapath: 'system' }, true)[4]!, /802-3-ethernet\.cloned-mac-address 5e:25:10:7d:58:14/, 'the kernel datapath keeps MCO\'s cloned MAC');
  t.false(planNmUp(u, { ...e, datapath: 'system' }, true).some((c) => c.includes('other_config:hwaddr')));
  const script = planNmProfiles({ ...u, nmConn: '5ed4f629-9fb4-4839-8c05-592ef0c44564' }, e, true).join('\n');
  t.regex(script, /DNS=\$\(nmcli -g ipv4\.dns connection show uuid 5ed4f629-9fb4-4839-8c05-592ef0c44564/);
  t.regex(script, /^up\)$[\s\S]*^down\)$/m);
  t.regex(planNmUp(u, { ...e, bridge: 'br-ex1', metric: 49 }, false)[2]!, /con-name ovs-port-phys1/);
});
