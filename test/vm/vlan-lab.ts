// VM-tier VLAN-on-bond scenarios (issue 20): the host's node address sits on bond0.100 - VLAN 100 on an
// active-backup bond of eth1+eth2 (miimon 100, updelay 200, primary eth1), eth0 down. The machine's kernel
// has neither 8021q nor a VLAN-aware bridge, so the far end of the VLAN is a second VM: its eth1 on the same
// lab bridge carries VLAN 100 (eth1.100 holds the VLAN's gateways, and serves DHCP when asked) and it
// routes between the VLAN and the lab bridge, where the controller reaches the host's VLAN addresses
// through it (routes in the lab's own namespace only).
import type { ExecutionContext } from 'ava';
import { run, sleep } from '../../src/lab/run.js';
import type { HostState } from '../../src/lab/state.js';
import { shellJoin } from '../../src/transports/quote.js';
import { atAddress, BOND_SNAPSHOT, vmUplinkLab, type VmUplinkLab } from './bond-lab.js';
import { lacpSwitchLab, type LacpLab } from './lacp-lab.js';
import { vmSh } from './vm-ssh.js';
import { raDnsmasq, type V6Kind } from './bond-ipv6-auto.js';
import { SNAPSHOT } from '../roles-lab/uplink-helpers.js';

export const VLAN = { id: 100, dev: 'bond0.100', host4: '172.31.221.11', gw4: '172.31.221.1', host6: 'fd21:100::11', gw6: 'fd21:100::1', lab6: 'fd21:1::1', peer6: 'fd21:1::2' };
/** The VLAN's IPv6 /64 (VLAN.gw6's), the one the peer advertises with `ra`. */
export const VLAN_PREFIX6 = VLAN.gw6.replace(/::1$/, '');
export const BOND_ARGS = ['mode', 'active-backup', 'miimon', '100', 'updelay', '200'];

/** SNAPSHOT plus a VLAN device's MAC, protocol and id. */
export const vlanSnapshot = (dev: string) => `${SNAPSHOT}; echo "# vlan"; ip -d -o link show dev ${dev} | grep -o "link/ether [^ ]*\\|vlan protocol [^ ]* id [0-9]*"`;

/** BOND_SNAPSHOT plus the VLAN's id and parent. */
export const VLAN_SNAPSHOT = `${BOND_SNAPSHOT}; echo "# vlan"; ip -d -o link show dev ${VLAN.dev} | grep -o "link/ether [^ ]*\\|vlan protocol [^ ]* id [0-9]*"`;

export interface VlanLab { lab: VmUplinkLab; peer: HostState; peerSh(cmd: string): Promise<string> }

/**
 * Two VMs with three NICs: the host under test and the peer (the VLAN's far end and router). `dhcp`: the
 * peer serves one address (VLAN.host4) on the VLAN with dnsmasq, so only the same client gets it again.
 * `protocol` 802.1ad: the peer's VLAN is a QinQ service VLAN (S-tag, ethertype 0x88a8): an 802.1Q VLAN on
 * the host hears nothing from it. `ra`: the peer is the VLAN's IPv6 router (bond-ipv6-auto.ts's dnsmasq: RAs
 * every 10 s for VLAN.gw6's /64, SLAAC only or sending hosts to its DHCPv6 range).
 */
export async function vlanLab(t: ExecutionContext, name: string, opts: { dhcp?: boolean; nmOvs?: boolean; protocol?: '802.1ad'; ra?: V6Kind } = {}): Promise<VlanLab> {
  const lab = await vmUplinkLab(t, name, 3, { hosts: 2, vms: 2, ...(opts.nmOvs ? { nmOvs: true } : {}) });
  const peer = lab.state.hosts[1]!;
  await vmSh(lab.state, peer, 'nmcli device set eth1 managed no 2>/dev/null || true; ip link set eth1 up');
  return vlanFarEnd(lab, peer, 'eth1', opts);
}

/**
 * The same over an LACP bond (lacp-lab.ts): the host's eth1+eth2 wired to the switch VM, whose bond0 carries
 * VLAN 100 (bond0.100 the VLAN's gateways and DHCP server, routing to the lab bridge on its eth0). Returns
 * the VLAN's lab (the switch as its peer) and the LACP lab (for assertLacpPartner and wireCutDrill); `protocol` as vlanLab's.
 */
export async function lacpVlanLab(t: ExecutionContext, name: string, opts: { dhcp?: boolean; nmOvs?: boolean; protocol?: '802.1ad'; ra?: V6Kind } = {}): Promise<{ v: VlanLab; lacp: LacpLab }> {
  const lacp = await lacpSwitchLab(t, name, opts.nmOvs ? { nmOvs: true } : {});
  // The switch's bridge sw0 (bond0 and eth3) is on the lab bridge beside its eth0: only eth0 answers ARP for
  // its lab address, so the lab's namespace routes the VLAN's subnet to eth0, not through the bridge.
  await vmSh(lacp.l.state, lacp.sw, 'sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.rp_filter=2');
  return { v: await vlanFarEnd(lacp.l, lacp.sw, 'bond0', opts), lacp };
}

/** The peer's end of VLAN 100 on `parent` (its gateways, DHCP and RAs when asked, routing), the lab namespace's routes to it. */
async function vlanFarEnd(lab: VmUplinkLab, peer: HostState, parent: string, opts: { dhcp?: boolean; protocol?: '802.1ad'; ra?: V6Kind }): Promise<VlanLab> {
  const peerSh = (cmd: string) => vmSh(lab.state, peer, cmd);
  const vdev = `${parent}.${VLAN.id}`;
  // The peer is the test's far end: no firewall between the lab bridge and the VLAN.
  await peerSh(['systemctl stop firewalld 2>/dev/null; nft flush ruleset',
    `ip link add link ${parent} name ${vdev} type vlan protocol ${opts.protocol ?? '802.1Q'} id ${VLAN.id}`, `ip link set ${vdev} up`,
    `ip addr add ${VLAN.gw4}/24 dev ${vdev}`, `ip -6 addr add ${VLAN.gw6}/64 dev ${vdev} nodad`, `ip -6 addr add ${VLAN.peer6}/64 dev eth0 nodad`,
    'sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1'].join(' && '));
  if (opts.dhcp) {
    await peerSh(shellJoin(['systemd-run', '--quiet', '--unit=v21-dhcp', 'dnsmasq', '--keep-in-foreground', '--user=root', '--port=0',
      `--interface=${vdev}`, '--bind-interfaces', `--dhcp-range=${VLAN.host4},${VLAN.host4},255.255.255.0,10m`,
      `--dhcp-option=3,${VLAN.gw4}`, '--dhcp-leasefile=/run/v21-dhcp.leases', '--log-dhcp']));
  }
  // The router takes no RAs itself (bond-ipv6-auto.ts: a constructed prefix would take their lifetimes).
  if (opts.ra) await peerSh(`echo 0 >/proc/sys/net/ipv6/conf/${vdev}/accept_ra && ${raDnsmasq(opts.ra, VLAN_PREFIX6, vdev, 'v21-ra')}`);
  // The lab's namespace (the controller's side) reaches the VLAN through the peer.
  const ns = (args: string[]) => run('ip', ['-n', lab.state.netns, ...args]);
  await ns(['-6', 'addr', 'add', `${VLAN.lab6}/64`, 'dev', lab.state.bridge, 'nodad']);
  await ns(['route', 'add', `${VLAN.gw4.replace(/\.1$/, '.0')}/24`, 'via', peer.ip]);
  await ns(['-6', 'route', 'add', `${VLAN.gw6.replace(/1$/, '')}/64`, 'via', VLAN.peer6]);
  return { lab, peer, peerSh };
}

/**
 * Moves the host's node address onto bond0.100 the way an installer leaves it: kernel devices (static) or
 * NetworkManager profiles (dhcp: bond, ports and the VLAN with a DHCP client, as RHEL installers make them;
 * nm with v4: the same profiles, the VLAN's IPv4 static; kernelBond: the kernel's bond, the VLAN NM's profile
 * on it, DHCP or static as `dhcp` says; `v6Auto`: NM's VLAN profile with ipv6.method auto, for vlanLab's `ra`).
 * `v4`/`v6`: static addresses and default routes of each family; `nmBond`:
 * NM's bond.options (default active-backup, miimon 100, updelay 200, primary eth1); `protocol`: the VLAN's (as
 * vlanLab's peer has it; NM's profile then carries vlan.protocol). Detached (the session's path moves), then
 * returns the lab seen at the node address (v4 if any, else v6).
 */
export async function vlanTheHost(v: VlanLab, opts: { v4?: boolean; v6?: boolean; dhcp?: boolean; nm?: boolean; kernelBond?: boolean; nmBond?: string; v6Auto?: boolean; protocol?: '802.1ad' }): Promise<VmUplinkLab> {
  const { lab } = v;
  const dev = VLAN.dev;
  // 802.1Q stays implicit, as before (the kernel's and NM's default).
  const proto = opts.protocol ? { ip: ` protocol ${opts.protocol}`, nm: ` vlan.protocol ${opts.protocol}` } : { ip: '', nm: '' };
  const unmanage = 'for d in eth0 eth1 eth2; do nmcli device set "$d" managed no 2>/dev/null || true; done';
  const kernel = [unmanage, `ip link add bond0 type bond ${shellJoin(BOND_ARGS)}`, 'ip link set eth1 down', 'ip link set eth2 down',
    'ip link set eth1 master bond0', 'ip link set eth2 master bond0', 'ip link set bond0 type bond primary eth1', 'ip link set bond0 up',
    `ip link add link bond0 name ${dev} type vlan${proto.ip} id ${VLAN.id}`, `ip link set ${dev} up`,
    ...(opts.v4 ? [`ip addr add ${VLAN.host4}/24 dev ${dev}`, `ip route replace default via ${VLAN.gw4} dev ${dev}`] : []),
    ...(opts.v6 ? [`ip -6 addr add ${VLAN.host6}/64 dev ${dev} nodad`, `ip -6 route replace default via ${VLAN.gw6} dev ${dev}`] : [])];
  const ip4 = opts.dhcp ? 'ipv4.method auto ipv4.dhcp-client-id mac' : `ipv4.method manual ipv4.addresses ${VLAN.host4}/24 ipv4.gateway ${VLAN.gw4}`;
  // eth3 (the LACP lab's spare NIC on the lab bridge) would cycle through NM's auto DHCP.
  const nm = ['nmcli device set eth0 managed no', '{ nmcli device set eth3 managed no 2>/dev/null || true; }',
    `nmcli connection add type bond con-name bond0 ifname bond0 bond.options ${shellJoin([opts.nmBond ?? 'mode=active-backup,miimon=100,updelay=200,primary=eth1'])} ipv4.method disabled ipv6.method ignore`,
    'nmcli connection add type ethernet con-name bond0-eth1 ifname eth1 master bond0 slave-type bond',
    'nmcli connection add type ethernet con-name bond0-eth2 ifname eth2 master bond0 slave-type bond',
    `nmcli connection add type vlan con-name ${dev} ifname ${dev} dev bond0 id ${VLAN.id}${proto.nm} ${ip4} ipv6.method ${opts.v6Auto ? 'auto' : 'ignore'}`,
    'nmcli connection up bond0', 'nmcli connection up bond0-eth1', 'nmcli connection up bond0-eth2', `nmcli connection up ${dev}`];
  // kernelBond: the bond made in the kernel (its ports unmanaged, as `kernel`), the VLAN NM's profile on it.
  const kernelBond = [...kernel.slice(0, 8), nm.find((c) => c.includes('type vlan'))!, `nmcli connection up ${dev}`];
  const steps = [...(opts.kernelBond ? kernelBond : opts.dhcp || opts.nm ? nm : kernel), 'ip addr flush dev eth0', 'ip link set eth0 down',
    ...(opts.v4 || opts.dhcp ? [`ping -c3 -W2 ${VLAN.gw4} >/dev/null || true`] : [`ping -6 -c3 -W2 ${VLAN.gw6} >/dev/null || true`])].join(' && ');
  await lab.sh(shellJoin(['systemd-run', '--quiet', '--collect', '--unit=v21-vlan', 'sh', '-c', `sleep 1; ${steps}`]));
  const node = opts.v4 || opts.dhcp ? atAddress(lab, VLAN.host4, VLAN.gw4) : atAddress(lab, VLAN.host6, VLAN.gw6);
  const until = Date.now() + 300_000;
  for (;;) {
    await sleep(3000);
    const out = await node.sh(`ip -o addr show dev ${dev} scope global 2>/dev/null; true`, 60_000).catch(() => '');
    if (out.includes(` ${node.ip}/`)) return node;
    if (Date.now() > until) {
      const why = await vmSh(lab.state, v.peer, `ip -br addr; ping -c2 -W2 ${VLAN.host4}; true`).catch((e: Error) => e.message);
      throw new Error(`${dev} does not hold ${node.ip} after 300 s (seen from the peer:)\n${why}`);
    }
  }
}

/**
 * Moves the host's node address onto eth1.100 - VLAN 100 on the plain NIC eth1 (kernel devices, eth0 and eth2
 * down and unmanaged by NM) - with IPv4 (and `v6`: IPv6 too, a default route of each; `protocol`: the VLAN's,
 * as vlanLab's peer has it), detached; returns the lab seen at the node address once the host answers SSH there.
 */
export async function vlanOnNic(t: ExecutionContext, v: VlanLab, opts: { v6?: boolean; protocol?: '802.1ad' } = {}): Promise<VmUplinkLab> {
  const dev = `eth1.${VLAN.id}`;
  const steps = ['for d in eth0 eth1 eth2; do nmcli device set "$d" managed no 2>/dev/null || true; done', 'ip link set eth1 up',
    `ip link add link eth1 name ${dev} type vlan protocol ${opts.protocol ?? '802.1Q'} id ${VLAN.id}`, `ip link set ${dev} up`,
    `ip addr add ${VLAN.host4}/24 dev ${dev}`, `ip route replace default via ${VLAN.gw4} dev ${dev}`,
    ...(opts.v6 ? [`ip -6 addr add ${VLAN.host6}/64 dev ${dev} nodad`, `ip -6 route replace default via ${VLAN.gw6} dev ${dev}`] : []),
    'ip addr flush dev eth0', 'ip link set eth0 down', `ping -c3 -W2 ${VLAN.gw4} >/dev/null || true`].join(' && ');
  await v.lab.sh(shellJoin(['systemd-run', '--quiet', '--collect', '--unit=vm22-vlan', 'sh', '-c', `sleep 1; ${steps}`]));
  const l = atAddress(v.lab, VLAN.host4, VLAN.gw4);
  let held = '';
  for (const until = Date.now() + 300_000; !held.includes(`inet ${VLAN.host4}/`) && Date.now() < until;) {
    await sleep(3000);
    held = await l.sh(`ip -o -4 addr show dev ${dev} 2>/dev/null; true`, 60_000).catch(() => '');
  }
  t.regex(held, new RegExp(`inet ${VLAN.host4.replaceAll('.', '\\.')}/24`), 'the host answers SSH on the VLAN');
  return l;
}
