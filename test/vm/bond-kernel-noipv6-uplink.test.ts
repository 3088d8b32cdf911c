// VM tier (npm run test:vm), issue 20: a kernel booted with ipv6.disable=1 (the lab's `--vm-kernel-arg`), an
// active-backup bond holding the node address. Under br-ex the bond holds no address and, without IPv6 in the
// kernel, gets no link-local either (the disable_ipv6 sysctl case's fix, nm-bond-noipv6-uplink.test.ts, cannot
// apply): its failover tells the switch nothing. Measured on this scenario's first version: the ovs backend's move
// (62 s) then the active port's wire cut lost 244 of 300 pings (gap 12.2 s), as the nm backend's bond with its IPv6
// turned off by hand lost 246. Both backends refuse before any change, naming the cause and the ways out (the nm
// one also the sysctl); the host reads exactly as before.
import test from 'ava';
import { BOND_SNAPSHOT, bondTheHost, failure, vmUplinkLab } from './bond-lab.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';

const LAB = 'nbnokv6';

test.serial('a kernel without IPv6: both backends refuse an active-backup bond before any change', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const note = (what: string) => { t.log(what); console.error(`[${LAB}] ${what}`); };
  const l = await vmUplinkLab(t, LAB, 3, { nmOvs: true, vm: { nics: 3, kernelArgs: ['ipv6.disable=1'] } });
  note(`VM up: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  t.regex(await l.sh('cat /proc/cmdline'), / ipv6\.disable=1$/m, 'booted with ipv6.disable=1');
  t.is((await l.sh('[ -d /proc/sys/net/ipv6 ] && echo on || echo off')).trim(), 'off', 'the kernel has no IPv6');
  await bondTheHost(l, ['mode', 'active-backup', 'miimon', '100', 'updelay', '200']);
  await l.sh('ip link set bond0 type bond primary eth1');
  const before = await l.sh(BOND_SNAPSHOT);

  let at = Date.now();
  const refused = await l.role({ configure_ovs_backend: 'nm' });
  note(`nm run (refused): ${((Date.now() - at) / 1000).toFixed(0)} s`);
  t.is(refused.summary.exitCode, 2, failure(refused));
  t.regex(failure(refused), /the uplink bond0 is an active-backup bond and the kernel runs without IPv6 \(booted with ipv6\.disable=1: no \/proc\/sys\/net\/ipv6\)\. Under br-ex the bond holds no address/);
  t.regex(failure(refused), /Boot without ipv6\.disable=1 \(to keep the node IPv4-only, set net\.ipv6\.conf\.all\.disable_ipv6=1 instead/);
  t.deepEqual(refused.changed, [], 'the refused run changes nothing');
  t.is(await l.sh(BOND_SNAPSHOT), before, 'the host reads exactly as before');
  t.is((await l.sh('ovs-vsctl list-br; nmcli -t -f NAME connection show | grep "^ovs-"; true')).trim(), '', 'no bridge, no ovs-* profile');

  // The ovs backend on the same kernel: refused too (its kernel-made bond under br-ex holds no address either;
  // moved on this VM before the refusal, the active port's wire cut lost 244 of 300 pings, gap 12.2 s).
  at = Date.now();
  const ovs = await l.role({ configure_ovs_backend: 'ovs' });
  note(`ovs run (refused): ${((Date.now() - at) / 1000).toFixed(0)} s`);
  t.is(ovs.summary.exitCode, 2, failure(ovs));
  t.regex(failure(ovs), /the uplink bond0 is an active-backup bond and the kernel runs without IPv6 .* Boot without ipv6\.disable=1, or use an 802\.3ad \(LACP\) bond/);
  t.deepEqual(ovs.changed, [], 'the refused run changes nothing');
  t.is(await l.sh(BOND_SNAPSHOT), before, 'the host reads exactly as before');
  note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
