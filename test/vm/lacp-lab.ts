// VM-tier LACP scenarios (issue 20): two VM hosts, the host under test with bond0 (802.3ad, lacp_rate fast,
// xmit_hash_policy layer3+4) over eth1+eth2, wired point-to-point to the second VM, which plays the switch:
// its own LACP bond over the two wires in a Linux bridge with its eth3 on the lab bridge, so the lab (and the
// controller) reach the host's address through the aggregate. And the drill: one wire cut at both ends.
import type { ExecutionContext } from 'ava';
import { labSetLink } from '../../src/lab/lab-link.js';
import type { LabUpOptions } from '../../src/lab/index.js';
import type { HostState } from '../../src/lab/state.js';
import { sleep } from '../../src/lab/run.js';
import { labPing } from '../helpers/lab-ping.js';
import { vmSh } from './vm-ssh.js';
import { bondTheHost, esc, longestGap, vmUplinkLab, type VmUplinkLab } from './bond-lab.js';

export const LACP = ['mode', '802.3ad', 'lacp_rate', 'fast', 'miimon', '100', 'xmit_hash_policy', 'layer3+4'];

export interface LacpLab { l: VmUplinkLab; sw: HostState; swMac: string }

/** The two VMs wired, the switch bonded and bridged, the host on bond0 and aggregated with the switch. */
export async function lacpLab(t: ExecutionContext, lab: string, extra: Partial<LabUpOptions> = {}): Promise<LacpLab> {
  const wired = await lacpSwitchLab(t, lab, extra);
  await bondTheHost(wired.l, LACP);
  await assertLacpPartner(t, wired);
  return wired;
}

/** The two VMs wired, the switch bonded and bridged; the host's bond is the caller's to make (assertLacpPartner after). */
export async function lacpSwitchLab(t: ExecutionContext, lab: string, extra: Partial<LabUpOptions> = {}): Promise<LacpLab> {
  const l = await vmUplinkLab(t, lab, 4, { hosts: 2, vms: 2,
    wires: [[{ host: 1, nic: 1 }, { host: 2, nic: 1 }], [{ host: 1, nic: 2 }, { host: 2, nic: 2 }]], ...extra });
  const sw = l.state.hosts[1]!;
  await vmSh(l.state, sw, ['for d in eth1 eth2 eth3; do nmcli device set "$d" managed no 2>/dev/null || true; done',
    `ip link add bond0 type bond ${LACP.join(' ')}`, 'ip link set eth1 down', 'ip link set eth2 down',
    'ip link set eth1 master bond0', 'ip link set eth2 master bond0', 'ip link add sw0 type bridge',
    'ip link set bond0 master sw0', 'ip link set eth3 master sw0', 'ip link set eth3 up', 'ip link set bond0 up', 'ip link set sw0 up'].join(' && '));
  const swMac = (await vmSh(l.state, sw, 'cat /sys/class/net/bond0/address')).trim();
  return { l, sw, swMac };
}

/** The host's bond0 has the switch as its LACP partner (waits up to 60 s); returns /proc/net/bonding/bond0. */
export async function assertLacpPartner(t: ExecutionContext, { l, swMac }: LacpLab, what = ''): Promise<string> {
  let bond = '';
  for (let i = 0; i < 30 && !bond.includes(swMac); i++) {
    bond = await l.sh('cat /proc/net/bonding/bond0 || true');
    if (!bond.includes(swMac)) await sleep(2000);
  }
  t.true(bond.includes(swMac), `no LACP partner ${swMac}${what}:\n${bond}`);
  return bond;
}

/**
 * One wire cut at both ends (a cable pulled: both ports lose carrier) while the lab pings the host every 50 ms:
 * the aggregate carries on over the other (cutting the host's end alone leaves the switch sending on it until
 * LACP's timeout, ~3 s). The wire is put back and eth1 seen back in the aggregate. `l.ip` may be an IPv6
 * address (the host reached at its SLAAC/DHCPv6 address: atAddress): pinged with -6, read back with ip -6.
 */
export async function wireCutDrill(t: ExecutionContext, { l, sw }: LacpLab, lab: string): Promise<{ lost: number; gap: number }> {
  const count = 300;
  const family = l.ip.includes(':') ? '-6' : '-4';
  const pinging = labPing(l.state, l.ip, [...(family === '-6' ? ['-6'] : []), '-i', '0.05', '-c', String(count), '-W', '1'], 120_000);
  await sleep(3000);
  await Promise.all([labSetLink(l.host.name, 'eth1', 'down', { name: lab }), labSetLink(sw.name, 'eth1', 'down', { name: lab })]);
  const ping = await pinging;
  const received = Number(/(\d+) received/.exec(ping.stdout)?.[1] ?? 0);
  const gap = longestGap(ping.stdout, 0.05, count);
  t.log(`eth1 wire cut: ${count - received} of ${count} pings lost, longest gap ${gap.toFixed(2)} s`);
  t.true(gap < 10, `gap ${gap} s`);
  t.true(received > count / 2, `the host kept answering over eth2 (${received} of ${count})`);
  t.regex(await l.sh('cat /proc/net/bonding/bond0'), /Slave Interface: eth1\nMII Status: down/);
  t.regex(await l.sh(`ip -o ${family} addr show dev br-ex`), new RegExp(`inet6? ${esc(l.ip)}/\\d+ `), 'SSH on the same address after the cut');
  await Promise.all([labSetLink(l.host.name, 'eth1', 'up', { name: lab }), labSetLink(sw.name, 'eth1', 'up', { name: lab })]);
  let up = '';
  for (let i = 0; i < 20 && !/Slave Interface: eth1\nMII Status: up/.test(up); i++) {
    await sleep(1500);
    up = await l.sh('cat /proc/net/bonding/bond0');
  }
  t.regex(up, /Slave Interface: eth1\nMII Status: up/, 'eth1 back in the aggregate once the wire is');
  return { lost: count - received, gap };
}
