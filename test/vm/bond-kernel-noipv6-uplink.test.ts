// VM tier (npm run test:vm), issue 20: an active-backup bond holding the node address on a host without IPv6,
// two ways. Under br-ex the bond holds no address and, without IPv6, gets no link-local either: its failover
// tells the switch nothing. A kernel booted with ipv6.disable=1 (the lab's `--vm-kernel-arg`): measured on this
// scenario's first version, the ovs backend's move (62 s) then the active port's wire cut lost 244 of 300 pings
// (gap 12.2 s), as the nm backend's bond with its IPv6 turned off by hand lost 246; both backends refuse. The
// disable_ipv6 sysctl as admins set it (/etc/sysctl.d: all and default 1, so the bond made after takes 1): the
// ovs backend's move (182 s) left the bond and br-ex (made then: `default`) with IPv6 off, and the cut lost 258
// of 300 (gap 12.9 s): the ovs backend refuses; the nm backend's move gives the bond alone its link-local back
// (its failover proven in nm-bond-noipv6-uplink.test.ts: 5 of 300). Each refusal comes before any change: the host reads exactly as before.
// Both hosts passed in this table: the kernel one in 7.9 min at load 8-15 (VM up 329 s, nm refused in 19 s, ovs
// in 12 s), the sysctl one in 10.4 min at load 13-19 (VM up 262 s, ovs refused in 23 s, nm moved in 163 s).
import test, { type ExecutionContext } from 'ava';
import { BOND_SNAPSHOT, bondTheHost, failure, vmUplinkLab, type VmUplinkLab } from './bond-lab.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const SYSCTL_OFF = "printf 'net.ipv6.conf.all.disable_ipv6 = 1\\nnet.ipv6.conf.default.disable_ipv6 = 1\\n' >/etc/sysctl.d/90-ipv4-only.conf && sysctl -q -p /etc/sysctl.d/90-ipv4-only.conf";
const V6 = (dev: string) => `cat /proc/sys/net/ipv6/conf/${dev}/disable_ipv6; ip -o -6 addr show dev ${dev}`;

interface NoIpv6Host {
  lab: string;
  title: string;
  kernelArgs?: string[];
  /** Run before the bond is made: IPv6 turned off. */
  prepare?: string;
  /** Asserts IPv6 is off as meant, on the bonded host. */
  noIpv6(t: ExecutionContext, l: VmUplinkLab): Promise<void>;
  /** Each backend's run, in order: the refusal's words, or the nm backend's move and what it must leave. */
  runs: { backend: 'nm' | 'ovs'; refused?: RegExp[]; moved?(t: ExecutionContext, l: VmUplinkLab): Promise<void> }[];
}

const HOSTS: NoIpv6Host[] = [{
  lab: vmLabName('nbnokv6'), title: 'a kernel without IPv6: both backends refuse an active-backup bond before any change', kernelArgs: ['ipv6.disable=1'],
  noIpv6: async (t, l) => {
    t.regex(await l.sh('cat /proc/cmdline'), / ipv6\.disable=1$/m, 'booted with ipv6.disable=1');
    t.is((await l.sh('[ -d /proc/sys/net/ipv6 ] && echo on || echo off')).trim(), 'off', 'the kernel has no IPv6');
  },
  runs: [
    { backend: 'nm', refused: [/the uplink bond0 is an active-backup bond and the kernel runs without IPv6 \(booted with ipv6\.disable=1: no \/proc\/sys\/net\/ipv6\)\. Under br-ex the bond holds no address/,
      /Boot without ipv6\.disable=1 \(to keep the node IPv4-only, set net\.ipv6\.conf\.all\.disable_ipv6=1 instead/] },
    // Its kernel-made bond under br-ex holds no address either (moved on this VM before the refusal: 244 of 300 lost).
    { backend: 'ovs', refused: [/the uplink bond0 is an active-backup bond and the kernel runs without IPv6 .* Boot without ipv6\.disable=1, or use an 802\.3ad \(LACP\) bond/] },
  ],
}, {
  lab: 'sxsysv6', title: 'IPv6 off by sysctl (all, default): the ovs backend refuses an active-backup bond before any change, the nm backend moves it with its link-local', prepare: SYSCTL_OFF,
  noIpv6: async (t, l) => {
    t.is((await l.sh('[ -d /proc/sys/net/ipv6 ] && echo on || echo off')).trim(), 'on', 'the kernel has IPv6');
    t.is((await l.sh(V6('bond0'))).trim(), '1', 'the bond, made after sysctl.d, has IPv6 off (it takes default), no link-local');
  },
  runs: [
    { backend: 'ovs', refused: [/the uplink bond0 is an active-backup bond and IPv6 is turned off on bond0 \(disable_ipv6 1, .*\)\. Under br-ex the bond holds no address and the move gives no IPv6 link-local back/,
      /Give bond0 its link-local alone \(net\.ipv6\.conf\.bond0\.disable_ipv6 = 0 and accept_ra = 0 in \/etc\/sysctl\.d, so a boot keeps it\), use backend: nm .*, or use an 802\.3ad \(LACP\) bond$/] },
    { backend: 'nm', moved: async (t, l) => {
      t.regex((await l.sh(V6('bond0'))).trim(), /^0\n\d+: bond0 +inet6 fe80::[0-9a-f:]+\/64 scope link/, 'the nm backend gave the bond alone its link-local');
      t.is((await l.sh(V6('br-ex'))).trim(), '1', 'br-ex, holding the node address, stays without IPv6');
    } },
  ],
}];

for (const h of HOSTS) {
  test.serial(h.title, async (t) => {
    t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
    const started = Date.now();
    const note = (what: string) => { t.log(what); console.error(`[${h.lab}] ${what}`); };
    const l = await vmUplinkLab(t, h.lab, 3, { nmOvs: true, vm: { nics: 3, ...(h.kernelArgs ? { kernelArgs: h.kernelArgs } : {}) } });
    note(`VM up: ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (h.prepare) await l.sh(h.prepare);
    await bondTheHost(l, ['mode', 'active-backup', 'miimon', '100', 'updelay', '200']);
    await l.sh('ip link set bond0 type bond primary eth1');
    await h.noIpv6(t, l);
    const before = await l.sh(BOND_SNAPSHOT);
    for (const r of h.runs) {
      const at = Date.now();
      const run = await l.role({ configure_ovs_backend: r.backend });
      note(`${r.backend} run (${r.refused ? 'refused' : 'moved'}): ${((Date.now() - at) / 1000).toFixed(0)} s`);
      if (r.moved) {
        t.is(run.summary.exitCode, 0, failure(run));
        t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), 'bond0');
        await r.moved(t, l);
        continue;
      }
      t.is(run.summary.exitCode, 2, failure(run));
      for (const re of r.refused ?? []) t.regex(failure(run), re);
      t.deepEqual(run.changed, [], 'the refused run changes nothing');
      t.is(await l.sh(BOND_SNAPSHOT), before, 'the host reads exactly as before');
      t.is((await l.sh('ovs-vsctl list-br; nmcli -t -f NAME connection show | grep "^ovs-"; ls /etc/hostwire/configure-ovs 2>/dev/null; true')).trim(), '', 'no bridge, no ovs-* profile, no state file');
    }
    note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });
}
