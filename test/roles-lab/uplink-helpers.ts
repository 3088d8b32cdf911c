// Shared by the uplink-move fault tests (role configure_ovs, mode uplink): one fresh lab host per
// test with its own deadline and teardown, the role run through the real playbook runner, a
// snapshot of everything the move may touch (to assert an exact restore), and fault injection on
// the host itself (a watcher that strikes as soon as br-ex appears).
import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml, type LabUpOptions } from '../../src/lab/index.js';
import { shellJoin } from '../../src/transports/quote.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { runRole, type RoleRun } from './sdn-agent-helpers.js';

export interface UplinkLab {
  host: LabHost;
  ip: string;
  gw: string;
  /** Runs the configure_ovs role (mode uplink, netdev datapath) with extra variables. */
  role(vars?: Record<string, unknown>, check?: boolean): Promise<RoleRun>;
  dir: string;
  inventory: string;
  playbook: string;
}

/** A fresh lab host for one test: deadline below ava's 5 min, torn down even on failure. */
export async function uplinkLab(t: ExecutionContext, lab: string, deadlineMs = 240_000, options: Omit<LabUpOptions, 'name'> = {}): Promise<UplinkLab> {
  t.timeout(deadlineMs, `${lab}: the test's own deadline`);
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${lab}-`));
  let host: LabHost | undefined;
  t.teardown(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  host = await labHost(lab, options);
  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'ovs.yml');
  writeFileSync(inventory, labInventoryYaml(host.state));
  writeFileSync(playbook, '- hosts: all\n  gather_facts: false\n  roles:\n    - configure_ovs\n');
  const base = { configure_ovs_mode: 'uplink', configure_ovs_datapath_type: 'netdev' };
  return {
    host, dir, inventory, playbook,
    ip: host.state.hosts[0]!.ip,
    gw: host.state.subnet.gateway,
    role: (vars = {}, check = false) => runRole(playbook, inventory, { ...base, ...vars }, check),
  };
}

/** Everything the move touches, normalised: addresses, routes, links, OVS, nft, hostwire's files. */
export const SNAPSHOT = [
  'echo "# addresses"; ip -o addr show scope global | awk \'{print $2, $3, $4}\'',
  'echo "# routes"; ip route show table main; ip -6 route show default',
  // ovs-netdev is the userspace datapath's own tap: OVS keeps it once the netdev datapath was used.
  'echo "# links"; ip -o link | awk -F\': \' \'{print $2}\' | grep -v "^ovs-netdev" | while read -r l; do l=${l%%@*}; ip -o link show dev "$l" | sed -E "s/^[0-9]+: ([^:@]+)[^:]*: <([^>]*)> mtu ([0-9]+).*link\\/(\\S+) (\\S+).*/\\1 <\\2> mtu \\3 \\4 \\5/"; done',
  'echo "# ovs"; for b in $(ovs-vsctl --timeout=5 list-br); do echo "$b: $(ovs-vsctl --timeout=5 list-ports "$b" | tr "\\n" " ")"; done',
  'echo "# nft netdev"; nft list tables netdev',
  'echo "# files"; ls -d /usr/local/libexec/hostwire/configure-ovs /etc/systemd/system/hostwire-configure-ovs.service /var/lib/ovnk/iface_default_hint /etc/hostwire/configure-ovs/* /var/lib/hostwire/configure-ovs/*.prev /var/lib/hostwire/configure-ovs/*.resolv /etc/systemd/system/*.wants/hostwire-configure-ovs.service 2>/dev/null; systemctl is-enabled hostwire-configure-ovs.service 2>/dev/null; true',
].join('; ');

export const snapshot = (l: UplinkLab) => l.host.sh(SNAPSHOT);

/**
 * The shell that makes eth1 (veth to a peer eth1p inside the host) holding 192.168.77.1/24, as an extra_bridge
 * NIC would. NetworkManager would start DHCP on a new veth and strip the static address before a move reads it
 * (seen under load in CI: br-ex1 came up empty), so both ends are unmanaged before they exist.
 */
export const ETH1_SH = "printf '[keyfile]\\nunmanaged-devices+=interface-name:eth1;interface-name:eth1p\\n' >/etc/NetworkManager/conf.d/90-lab-eth1.conf && nmcli general reload conf && " +
  'ip link add eth1 type veth peer name eth1p && ethtool -K eth1 tx off >/dev/null && ethtool -K eth1p tx off >/dev/null && ip link set eth1p up && ip link set eth1 up && ip addr add 192.168.77.1/24 dev eth1';

export const addEth1 = (l: UplinkLab) => l.host.sh(ETH1_SH);

/**
 * Runs `cmd` on the host as soon as `bridge` exists (a transient unit, so it outlives our session);
 * the fault hits inside the transaction, before its checks.
 */
export async function onBridgeUp(l: UplinkLab, cmd: string, bridge = 'br-ex', what = 'fault'): Promise<void> {
  const script = `i=0; until ip -4 route show default dev ${bridge} | grep -q .; do i=$((i+1)); [ $i -lt 1200 ] || exit 1; sleep 0.05; done; ${cmd}`;
  await l.host.sh(shellJoin(['systemd-run', '--quiet', '--collect', `--unit=h4-${what}`, 'sh', '-c', script]));
}

/** The failed task's message of a role run (the one task of configure_ovs). */
export const failure = (r: RoleRun) => r.failed.join('\n');
