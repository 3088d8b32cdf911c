// A DHCP uplink on a two-host lab: the second host serves DHCP (dnsmasq, the first host's MAC reserved to its
// lab address), the first host's eth0 takes that lease through a NetworkManager profile (`dhcp0`), or networkd's client - the shape
// the configure_ovs DHCP scenarios move (nspawn hosts with either backend).
import type { ExecutionContext } from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { labInventoryYaml, type HostState, type LabState } from '../../src/lab/index.js';
import { labExec } from '../../src/lab/ssh.js';
import { shellJoin } from '../../src/transports/quote.js';
import { runRole, type RoleRun } from '../roles-lab/sdn-agent-helpers.js';

export interface DhcpLease {
  client: HostState;
  server: HostState;
  gw: string;
  /** eth0's MAC (the reservation's key). */
  mac: string;
  /** `ip -o -4 addr show dev eth0` once it holds a dynamic address (or the last try). */
  addr: string;
  /** Runs a command on a lab host; throws with rc and stderr when it fails. */
  onHost(h: HostState, cmd: string): Promise<string>;
  /** Runs configure_ovs (mode uplink, `vars` over the base ones) on the client alone. */
  role(vars?: Record<string, unknown>, check?: boolean): Promise<RoleRun>;
}

/**
 * networkd's DHCP client on eth0 instead (no NM profile: NM told to leave eth0 alone), client id the MAC as NM's
 * internal client sends it, so the reservation's lease is the one the move's networkd on br-ex asks for again.
 */
const NETWORKD_LEASE = "sleep 1; printf '[keyfile]\\nunmanaged-devices+=interface-name:eth0\\n' >/etc/NetworkManager/conf.d/90-lab-eth0.conf && nmcli general reload conf && " +
  "nmcli device set eth0 managed no && mkdir -p /etc/systemd/network && printf '[Match]\\nName=eth0\\n\\n[Network]\\nDHCP=ipv4\\nIPv6AcceptRA=no\\n\\n[DHCPv4]\\nClientIdentifier=mac\\n' >/etc/systemd/network/20-lab-eth0.network && " +
  'ip addr flush dev eth0 && systemctl restart systemd-networkd';

/**
 * ifupdown's ISC dhclient on eth0 instead (Debian without NM: `auto eth0` + `iface eth0 inet dhcp`; NM's ifupdown
 * plugin leaves eth0 alone, told so at runtime too). networking.service runs `ifup -a` as at boot, so dhclient lives in
 * its unit (a transient unit's would be killed with it). Needs the lab's rootfs with isc-dhcp-client and ifupdown.
 */
export const IFUPDOWN_STANZA = 'auto eth0\niface eth0 inet dhcp\n';
const IFUPDOWN_LEASE = `sleep 1; printf '${IFUPDOWN_STANZA}' >/etc/network/interfaces.d/eth0 && nmcli device set eth0 managed no; ` +
  'ip addr flush dev eth0 && ip route flush dev eth0 && systemctl restart networking';

/** Runs a command on a lab host; throws with rc and stderr when it fails. */
export type OnHost = (h: HostState, cmd: string) => Promise<string>;

/**
 * Starts the DHCP server on the second host (the first host's MAC reserved to its lab address); the role's
 * inventory and playbook (the client only) are written to `dir`. `onHost` defaults to labExec (nspawn hosts' short
 * timeouts; a VM host's test passes its own). eth0 holds no lease yet (`addr` empty): `takeLease` or the caller's own.
 */
export async function dhcpServer(state: LabState, dir: string, baseVars: Record<string, unknown> = {}, exec?: OnHost): Promise<DhcpLease> {
  const [client, server] = state.hosts;
  if (!client || !server) throw new Error(`lab ${state.name}: a DHCP lease needs two hosts`);
  const gw = state.subnet.gateway;
  const onHost = exec ?? (async (h: HostState, cmd: string) => {
    const r = await labExec(state, h, cmd);
    if (r.code !== 0) throw new Error(`${h.name}: rc=${r.code}: ${cmd}\n${r.stderr}`);
    return r.stdout;
  });
  const mac = (await onHost(client, 'cat /sys/class/net/eth0/address')).trim();
  const pool = gw.replace(/\.\d+$/, '');
  await onHost(server, 'firewall-cmd -q --add-service=dhcp'); // firewalld's public zone drops DHCP requests otherwise
  await onHost(server, shellJoin(['systemd-run', '--quiet', '--unit=hw-dhcp', 'dnsmasq', '--keep-in-foreground', '--user=root', '--port=0',
    '--interface=eth0', '--bind-interfaces', `--dhcp-range=${pool}.100,${pool}.150,255.255.255.0,10m`, `--dhcp-host=${mac},${client.ip}`,
    `--dhcp-option=3,${gw}`, '--dhcp-leasefile=/run/hw-dhcp.leases', '--log-dhcp']));
  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'ovs.yml');
  writeFileSync(inventory, labInventoryYaml({ ...state, hosts: [client] }));
  writeFileSync(playbook, '- hosts: all\n  gather_facts: false\n  roles:\n    - configure_ovs\n');
  const role = (vars: Record<string, unknown> = {}, check = false) => runRole(playbook, inventory, { configure_ovs_mode: 'uplink', ...baseVars, ...vars }, check);
  return { client, server, gw, mac, addr: '', onHost, role };
}

/** eth0's address as a dynamic one (a lease) once it is (60 s at most; the last try otherwise). */
export async function leasedAddr(d: DhcpLease, dev = 'eth0'): Promise<string> {
  let addr = '';
  for (let i = 0; i < 60 && !/ dynamic /.test(addr); i++) {
    await new Promise((r) => setTimeout(r, 1000));
    addr = await d.onHost(d.client, `ip -o -4 addr show dev ${dev}`).catch(() => '');
  }
  return addr;
}

/**
 * Starts the DHCP server on the second host and moves the first host's eth0 address onto a lease of it;
 * the role's inventory and playbook (the client only) are written to `dir`.
 */
export async function leaseOnEth0(state: LabState, dir: string, baseVars: Record<string, unknown> = {}, dhcpClient: 'nm' | 'networkd' | 'ifupdown' = 'nm'): Promise<DhcpLease> {
  const d = await dhcpServer(state, dir, baseVars);
  // eth0's lab address becomes a lease of the same address (a transient unit: the session blinks meanwhile).
  await d.onHost(d.client, shellJoin(['systemd-run', '--quiet', '--collect', '--unit=hw-dhcpc', 'sh', '-c', dhcpClient === 'nm'
    ? 'sleep 1; nmcli connection add type ethernet con-name dhcp0 ifname eth0 ipv4.method auto ipv6.method ignore && ip addr flush dev eth0 && nmcli connection up dhcp0'
    : dhcpClient === 'networkd' ? NETWORKD_LEASE : IFUPDOWN_LEASE]));
  return { ...d, addr: await leasedAddr(d) };
}

/** The move (the role run): the same lease on br-ex (the server's one lease for eth0's MAC), its default route at metric 48, eth0 bare. */
export async function moveKeepsLease(t: ExecutionContext, d: DhcpLease): Promise<void> {
  const ip = d.client.ip.replaceAll('.', '\\.');
  const started = Date.now();
  const moved = await d.role();
  t.log(`DHCP move: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(moved.failed, []);
  t.regex(await d.onHost(d.client, 'ip -o -4 addr show dev br-ex'), new RegExp(`inet ${ip}/24 .*dynamic`), 'the same lease on br-ex');
  t.regex(await d.onHost(d.client, 'ip route show default'), new RegExp(`default via ${d.gw.replaceAll('.', '\\.')} dev br-ex .*metric 48`));
  t.is((await d.onHost(d.client, 'ip -o -4 addr show dev eth0')).trim(), '');
  t.regex(await d.onHost(d.server, 'cat /run/hw-dhcp.leases'), new RegExp(`${d.mac} ${ip} `));
}

/** eth0 holds its lease; a withheld confirmation (20 s) gives the lease back to eth0 through its NM profile. */
export async function rollbackKeepsLease(t: ExecutionContext, d: DhcpLease): Promise<void> {
  const held = new RegExp(`inet ${d.client.ip.replaceAll('.', '\\.')}/24 .*dynamic`);
  t.regex(d.addr, held, 'eth0 holds its lease');
  const drill = await d.role({ configure_ovs_confirm: false, configure_ovs_confirm_timeout: 20 });
  t.regex(drill.failed.join('\n'), /rolled back after [\d.]+ s: no confirmation from hostwire within 20 s/);
  t.regex(await d.onHost(d.client, 'ip -o -4 addr show dev eth0'), held, 'the lease is back on eth0');
  t.regex(await d.onHost(d.client, 'nmcli -t -f GENERAL.CONNECTION device show eth0'), /dhcp0/);
}
