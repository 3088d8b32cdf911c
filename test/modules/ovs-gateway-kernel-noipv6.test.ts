// A kernel booted with ipv6.disable=1 (no /proc/sys/net/ipv6): both backends refuse to move an active-backup
// bond (or a VLAN on one) before any change - under br-ex the bond holds no address and gets no link-local, so
// its failover would tell the switch nothing (a VM booted so, ovs backend: 244 of 300 pings lost; the nm
// backend's bond with its IPv6 turned off: 246). Against recorded probes of VM hosts (a kernel with IPv6) given
// the probe's `ipv6` section as such a kernel prints it.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { GATEWAY_PROBE } from '../../src/modules/ovs_gateway/probe.js';
import { isTxnChange, planUplink } from '../../src/modules/ovs_gateway/plan-uplink.js';

const caseText = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}`, import.meta.url), 'utf8');
const withIpv6 = (text: string, v: 'on' | 'off') => `${text.trimEnd()}\n::sec ipv6\n${v}\n::rc 0\n`;
const nm = (extra: Record<string, unknown> = {}) => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'nm', ...extra });
const ovs = () => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend: 'ovs' });
const REFUSED = /^ovs_gateway: the uplink bond0 is an active-backup bond and the kernel runs without IPv6 \(booted with ipv6\.disable=1: no \/proc\/sys\/net\/ipv6\)\. Under br-ex the bond holds no address and gets no IPv6 link-local, so its failover would tell the switch nothing .* Boot without ipv6\.disable=1 \(to keep the node IPv4-only, set net\.ipv6\.conf\.all\.disable_ipv6=1 instead: the move gives the bond alone its link-local back\), or use an 802\.3ad \(LACP\) bond$/;

test('the probe asks whether the kernel has IPv6 at all, in the same batched exec; a recording without the answer is a kernel with IPv6', (t) => {
  t.regex(GATEWAY_PROBE, /\[ -d \/proc\/sys\/net\/ipv6 \] && echo on \|\| echo off/);
  const text = caseText('probe-bond-fresh.txt');
  t.true(parseGatewayProbe(text).kernelIpv6);
  t.true(parseGatewayProbe(withIpv6(text, 'on')).kernelIpv6);
  t.false(parseGatewayProbe(withIpv6(text, 'off')).kernelIpv6);
});

test('kernel without IPv6: an active-backup bond is refused before any change on both backends, naming the cause and the ways out', (t) => {
  const s = parseGatewayProbe(withIpv6(caseText('probe-bond-fresh.txt'), 'off'));
  t.throws(() => planUplink(s, nm()), { message: REFUSED });
  // The same host with IPv6 in its kernel (its disable_ipv6 sysctls are the move's business): moved.
  const moved = planUplink({ ...s, kernelIpv6: true }, nm()).filter(isTxnChange);
  t.regex(moved[0]!.summary, /^move bond0 into br-ex/);
  // The ovs backend's kernel bond under br-ex holds no address either: refused, the sysctl not offered (its bond
  // gets no link-local back from the move).
  const err = t.throws(() => planUplink(s, ovs()));
  t.regex(err!.message, /^ovs_gateway: the uplink bond0 is an active-backup bond and the kernel runs without IPv6 .* Boot without ipv6\.disable=1, or use an 802\.3ad \(LACP\) bond$/);
  t.regex(planUplink({ ...s, kernelIpv6: true }, ovs()).filter(isTxnChange)[0]!.summary, /^move bond0 into br-ex/);
  // An LACP bond needs no word on a failover (the switch's aggregate holds the MAC): moved.
  const bond0 = s.links.find((l) => l.name === 'bond0')!;
  bond0.info = { ...bond0.info, mode: '802.3ad' };
  t.regex(planUplink(s, nm()).filter(isTxnChange)[0]!.summary, /^move bond0 into br-ex/);
});

test('kernel without IPv6: a VLAN on an active-backup bond is refused too (its failover has no word either)', (t) => {
  const s = parseGatewayProbe(withIpv6(caseText('probe-vlan-bond-nm-fresh.txt'), 'off'));
  t.throws(() => planUplink(s, nm()), { message: /^ovs_gateway: the uplink bond0\.100 is a VLAN on the active-backup bond bond0 and the kernel runs without IPv6 / });
  t.notThrows(() => planUplink({ ...s, kernelIpv6: true }, nm()));
  t.throws(() => planUplink(s, ovs()), { message: /^ovs_gateway: the uplink bond0\.100 is a VLAN on the active-backup bond bond0 and the kernel runs without IPv6 / });
});
