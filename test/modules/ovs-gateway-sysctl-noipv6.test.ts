// IPv6 turned off by the disable_ipv6 sysctl (/etc/sysctl.d: net.ipv6.conf.all and default = 1, an IPv4-only
// node), the kernel with IPv6: the ovs backend refuses an active-backup bond before any change - the move leaves
// the bond's sysctl as it is, so under br-ex nothing holds a link-local and the failover is silent (a VM so,
// moved by the ovs backend: 258 of 300 pings lost on the active port's cut, gap 12.9 s). The nm backend moves it
// (it gives the bond its link-local back). From the probe of such a VM host before the move.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { GATEWAY_PROBE } from '../../src/modules/ovs_gateway/probe.js';
import { isTxnChange, planUplink } from '../../src/modules/ovs_gateway/plan-uplink.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const RECORDED = 'probe-bond-sysctl-noipv6-fresh.txt';
/** The probe's `ipv6` section as a kernel with IPv6 prints it, `off` the devices whose disable_ipv6 is 1. */
const withSysctl = (text: string, devs: string[], off: string[]) => `${text.trimEnd()}\n::sec ipv6\non\n${devs.map((d) => `/proc/sys/net/ipv6/conf/${d}/disable_ipv6:${off.includes(d) ? 1 : 0}`).join('\n')}\n::rc 0\n`;
const args = (backend: 'ovs' | 'nm') => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend });
const REFUSED = /^ovs_gateway: the uplink bond0 is an active-backup bond and IPv6 is turned off on bond0 \(disable_ipv6 1, as net\.ipv6\.conf\.all\/default\.disable_ipv6=1 leave every device\)\. Under br-ex the bond holds no address and the move gives no IPv6 link-local back, so its failover would tell the switch nothing .* Give bond0 its link-local alone \(net\.ipv6\.conf\.bond0\.disable_ipv6 = 0 and accept_ra = 0 in \/etc\/sysctl\.d, so a boot keeps it\), use backend: nm \(it gives a kernel-made bond its link-local back\), or use an 802\.3ad \(LACP\) bond$/;

test('the probe reads every device\'s disable_ipv6 in the same batched exec as the kernel\'s IPv6; recordings without it read as none', (t) => {
  t.regex(GATEWAY_PROBE, /\[ -d \/proc\/sys\/net\/ipv6 \] && echo on \|\| echo off; grep -H \. \/proc\/sys\/net\/ipv6\/conf\/\*\/disable_ipv6/);
  const s = parseGatewayProbe(caseText(RECORDED));
  t.true(s.kernelIpv6);
  for (const dev of ['all', 'default', 'bond0', 'eth0', 'lo']) t.true(s.disableIpv6[dev], `${dev}: disable_ipv6 1 on the recorded host`);
  // The bond's ports read 0 in this recording (another run of the same setup read 1: NetworkManager's doing as it
  // let them go, not the move's); as ports they hold no address either way.
  t.deepEqual([s.disableIpv6.eth1, s.disableIpv6.eth2], [false, false]);
  t.deepEqual(parseGatewayProbe(caseText('probe-bond-fresh.txt')).disableIpv6, {});
});

test('IPv6 off by sysctl: the ovs backend refuses an active-backup bond before any change; the nm backend moves it; with IPv6 on the bond, moved', (t) => {
  const s = parseGatewayProbe(caseText(RECORDED));
  t.throws(() => planUplink(s, args('ovs')), { message: REFUSED });
  t.regex(planUplink(s, args('nm')).filter(isTxnChange)[0]!.summary, /^move bond0 into br-ex/);
  // The bond alone with IPv6 on (its link-local sends the NA from br-ex's MAC), `default` still 1: moved.
  const bondOn = { ...s, disableIpv6: { ...s.disableIpv6, bond0: false } };
  t.regex(planUplink(bondOn, args('ovs')).filter(isTxnChange)[0]!.summary, /^move bond0 into br-ex/);
  // An LACP bond needs no word on a failover (the switch's aggregate holds the MAC): moved.
  const bond0 = s.links.find((l) => l.name === 'bond0')!;
  bond0.info = { ...bond0.info, mode: '802.3ad' };
  t.regex(planUplink(s, args('ovs')).filter(isTxnChange)[0]!.summary, /^move bond0 into br-ex/);
});

test('IPv6 off by sysctl: a VLAN on an active-backup bond is refused when neither the VLAN nor the bond has IPv6 (the notification reaches the VLAN)', (t) => {
  const devs = ['all', 'default', 'lo', 'eth0', 'eth1', 'eth2', 'bond0', 'bond0.100'];
  const text = caseText('probe-vlan-bond-nm-fresh.txt');
  const s = parseGatewayProbe(withSysctl(text, devs, devs));
  t.throws(() => planUplink(s, args('ovs')), {
    message: /^ovs_gateway: the uplink bond0\.100 is a VLAN on the active-backup bond bond0 and IPv6 is turned off on bond0 and bond0\.100 .* Under br-ex neither holds an address .* Give bond0\.100 its link-local alone \(net\.ipv6\.conf\.bond0\/100\.disable_ipv6 = 0 /,
  });
  t.notThrows(() => planUplink(parseGatewayProbe(withSysctl(text, devs, devs.filter((d) => d !== 'bond0.100'))), args('ovs')), 'the VLAN with IPv6 on');
  t.notThrows(() => planUplink(parseGatewayProbe(withSysctl(text, devs, devs.filter((d) => d !== 'bond0'))), args('ovs')), 'the bond with IPv6 on');
  t.notThrows(() => planUplink(parseGatewayProbe(withSysctl(text, devs, [])), args('ovs')), 'IPv6 on everywhere');
});
