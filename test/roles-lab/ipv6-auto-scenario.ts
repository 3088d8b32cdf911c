// The IPv6-from-a-router uplink scenario of configure_ovs (mode uplink), shared by the ovs backend's lab tests
// (test/roles-lab/uplink-ipv6-auto.test.ts) and the nm backend's (test/vm/nm-uplink-ipv6-auto.test.ts, hosts of
// `lab up --nm-ovs`): the second lab host sends router advertisements with dnsmasq (SLAAC only, or stateful:
// DHCPv6; or serves DHCPv6 without RAs, eth0's profile then ipv6.method dhcp with its own default route via the
// lab's link-local), the first host's eth0 takes its IPv6 through a NetworkManager profile (ipv6.method auto; IPv4 static),
// or through the kernel's own SLAAC; a withheld confirmation gives eth0 back exactly its addresses and routes;
// the move keeps the same IPv6 address (the same interface identifier; DHCPv6: the same lease, same DUID/IAID)
// and the router's default route at metric 48 on br-ex; ping and SSH over IPv6 reach it; a second run and
// --check change nothing; optionally a reboot, after which the boot oneshot brings the same back.
import type { ExecutionContext } from 'ava';
import { execa } from 'execa';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml, labReboot, type HostState, type LabState } from '../../src/lab/index.js';
import { labExec, labSshArgv } from '../../src/lab/ssh.js';
import { GATEWAY_PROBE } from '../../src/modules/ovs_gateway/probe.js';
import { shellJoin } from '../../src/transports/quote.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { labPing } from '../helpers/lab-ping.js';
import { ACTIVE_PROFILES, brExProfiles } from '../helpers/nm-backend.js';
import { runRole } from './sdn-agent-helpers.js';
import { SNAPSHOT } from './uplink-helpers.js';

/** dnsmasq's RA/DHCPv6 arguments per scenario; the prefix is the lab segment's IPv6 one. */
const RA = ['--enable-ra', '--ra-param=eth0,10,600'];
const SCENARIOS = {
  slaac: () => [...RA, '--dhcp-range=::,constructor:eth0,ra-only,64,10m'],
  dhcp6: (p: string) => [...RA, `--dhcp-range=${p}::100,${p}::1ff,64,10m`, `--dhcp-leasefile=/run/hw-dhcp6.leases`],
  // RAs saying managed with an autonomous prefix: a SLAAC address and a DHCPv6 lease.
  mixed: (p: string) => [...RA, `--dhcp-range=${p}::100,${p}::1ff,slaac,64,10m`, `--dhcp-leasefile=/run/hw-dhcp6.leases`],
  // No router advertisements: DHCPv6 only (NM's ipv6.method dhcp); the default route is the profile's own.
  dhcp6only: (p: string) => [`--dhcp-range=${p}::100,${p}::1ff,64,10m`, `--dhcp-leasefile=/run/hw-dhcp6.leases`],
};
type Kind = keyof typeof SCENARIOS;
/** The prefix lengths of eth0's addresses per scenario (sorted as strings): SLAAC a /64, DHCPv6 a /128. */
const PREFIXES: Record<Kind, string[]> = { slaac: ['64'], dhcp6: ['128'], mixed: ['128', '64'], dhcp6only: ['128'] };
/** Whose the IPv6 default route is: the router's advertisements, or (no RAs) a route of eth0's NM profile. */
const proto = (kind: Kind) => (kind === 'dhcp6only' ? 'static' : 'ra');

export interface Ipv6AutoOpts {
  nm?: boolean; reboot?: boolean; forwarding?: boolean; v6only?: boolean;
  /** The nm backend on hosts whose NM has its OVS plugin (`lab up --nm-ovs`). */
  nmOvs?: boolean;
}
type OnHost = (h: HostState, cmd: string) => Promise<string>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** eth0 loses its IPv4 (the NM profile re-activated with ipv4.method disabled): from now on the host is reached at `addr`. */
async function toIpv6Only(state: LabState, h: HostState, addr: string, onHost: OnHost): Promise<HostState> {
  const known = readFileSync(state.knownHostsFile, 'utf8').split('\n').filter((line) => line.startsWith(`${h.ip} `));
  appendFileSync(state.knownHostsFile, known.map((line) => `${addr}${line.slice(h.ip.length)}\n`).join(''));
  // A power cycle must not seed eth0 with the lab's IPv4 address again (src/lab/network.ts, IPV6_ONLY_MARKER).
  await onHost(h, shellJoin(['sh', '-c', 'mkdir -p /var/lib/hostwire && echo "$1" >/var/lib/hostwire/lab-ipv6-only', 'sh', addr]));
  await onHost(h, shellJoin(['systemd-run', '--quiet', '--collect', '--unit=hw-v6only', 'sh', '-c',
    "sleep 1; nmcli connection modify v6auto ipv4.method disabled ipv4.addresses '' ipv4.gateway '' && nmcli connection up v6auto"]));
  const v6h = { ...h, ip: addr };
  for (let i = 0; i < 60; i++) {
    await sleep(1000);
    const r = await labExec(state, v6h, 'ip -o -4 addr show scope global; ip -6 route show default');
    if (r.code === 0 && !/ inet /.test(r.stdout) && /proto ra/.test(r.stdout)) return v6h;
  }
  throw new Error(`${h.name}: eth0 did not become IPv6-only at ${addr}`);
}

interface Setup { state: LabState; client: HostState; server: HostState; onHost: OnHost; before: string[]; v6: (dev: string) => Promise<string[]> }

/** The router on the second host, eth0's IPv6 from it (an NM profile, or the kernel's SLAAC), and eth0's address once it is there. */
async function routerAndClient(t: ExecutionContext, state: LabState, kind: Kind, prefix: string, o: Ipv6AutoOpts): Promise<Setup> {
  const { nm = true, forwarding = false } = o;
  const [first, server] = state.hosts as [HostState, HostState];
  let client = first;
  const onHost: OnHost = async (h, cmd) => {
    const r = await labExec(state, h, cmd);
    if (r.code !== 0) throw new Error(`${h.name}: rc=${r.code}: ${cmd}\n${r.stderr}`);
    return r.stdout;
  };
  // The router: an address in the prefix on the server's eth0, dnsmasq advertising it every 10 s.
  await onHost(server, `ip addr add ${prefix}::2/64 dev eth0 nodad && firewall-cmd -q --add-service=dhcpv6`);
  await onHost(server, shellJoin(['systemd-run', '--quiet', '--unit=hw-ra', 'dnsmasq', '--keep-in-foreground', '--user=root', '--port=0',
    '--interface=eth0', '--bind-interfaces', ...SCENARIOS[kind](prefix), '--log-dhcp']));
  await onHost(server, 'sleep 1; systemctl is-active -q hw-ra');
  // The lab's namespace: an address in the prefix too (to ping and SSH the host over IPv6).
  await execa('ip', ['-n', state.netns, 'addr', 'add', `${prefix}::1/64`, 'dev', state.bridge, 'nodad']);
  // A node routes: with IPv6 forwarding on the kernel ignores RAs (accept_ra 1); NM's and networkd's clients do not.
  if (forwarding) await onHost(client, 'sysctl -qw net.ipv6.conf.all.forwarding=1');
  // Without an NM profile eth0 is NM's only externally: the kernel's own SLAAC (accept_ra 1, EUI-64) takes the RA.
  // No RAs: the profile's own default route via the lab namespace's link-local (NM takes no ipv6.gateway without an address).
  const ll = /inet6 (fe80::[0-9a-f:]+)\//.exec((await execa('ip', ['-n', state.netns, '-o', '-6', 'addr', 'show', 'dev', state.bridge, 'scope', 'link'])).stdout)?.[1];
  const ip6 = proto(kind) === 'ra' ? 'ipv6.method auto' : `ipv6.method dhcp ipv6.routes '::/0 ${ll}'`;
  if (nm) {
    await onHost(client, shellJoin(['systemd-run', '--quiet', '--collect', '--unit=hw-v6c', 'sh', '-c',
      `sleep 1; nmcli connection add type ethernet con-name v6auto ifname eth0 ipv4.method manual ipv4.addresses ${client.ip}/24 ipv4.gateway ${state.subnet.gateway} ${ip6} && nmcli connection up v6auto`]));
  }
  // `address/prefix` of each of the device's global addresses in the prefix, sorted.
  const v6 = async (dev: string) => [...(await onHost(client, `ip -o -6 addr show dev ${dev} scope global -tentative`)).matchAll(new RegExp(`inet6 (${prefix}::[0-9a-f:]+/\\d+)`, 'g'))].map((m) => m[1]!).sort();
  let before: string[] = [];
  for (let i = 0; i < 60 && !(before.length === PREFIXES[kind].length && (await onHost(client, 'ip -6 route show default')).includes(`proto ${proto(kind)}`)); i++) {
    await sleep(1000);
    before = await v6('eth0').catch(() => []);
  }
  t.deepEqual(before.map((a) => a.split('/')[1]).sort(), PREFIXES[kind], `eth0 holds its ${kind} address(es)`);
  if (o.v6only) {
    client = await toIpv6Only(state, client, before[0]!.split('/')[0]!, onHost);
    t.deepEqual(await v6('eth0'), before, 'IPv6-only: the same SLAAC address (same profile, same device)');
  }
  return { state, client, server, onHost, before, v6 };
}

export async function ipv6AutoScenario(t: ExecutionContext, lab: string, kind: Kind, prefix: string, o: Ipv6AutoOpts = {}): Promise<void> {
  const { nm = true, reboot = false, forwarding = false } = o;
  // --nm-ovs: the first build of NM with its OVS plugin (minutes, once per machine) comes before the lab is up.
  t.timeout(o.nmOvs ? 1_500_000 : 290_000, `${lab}: the test's own deadline`);
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${lab}-`));
  let l: LabHost | undefined;
  t.teardown(async () => { await l?.close(); rmSync(dir, { recursive: true, force: true }); });
  l = await labHost(lab, { hosts: 2, ...(o.nmOvs ? { nmOvs: true } : {}) });
  if (o.nmOvs) t.timeout(reboot ? 420_000 : 290_000, `${lab}: the test's own deadline once the lab is up`);
  const { state, client, server, onHost, before, v6 } = await routerAndClient(t, l.state, kind, prefix, o);
  // The address pinged and SSHed: the DHCPv6 lease where there is one.
  const addr = (before.find((a) => a.endsWith('/128')) ?? before[0]!).split('/')[0]!;
  const snap = async () => (await onHost(client, SNAPSHOT)).replace(/ expires \d+sec/g, '');
  const snapBefore = await snap();
  t.regex(snapBefore, new RegExp(`default via fe80::\\S+ dev eth0 proto ${proto(kind)} metric ${nm ? 100 : 1024}`));
  if (!nm) t.regex(await onHost(client, 'ip -o -6 addr show dev eth0 scope global'), / dynamic mngtmpaddr /, 'the kernel\'s SLAAC');
  const nmBefore = o.nmOvs ? await nmLease(client, server, onHost, 'eth0') : undefined;
  // The module's own probe before the move, kept as recorded real output for the pure tests (HW_RECORD_DIR).
  if (process.env.HW_RECORD_DIR) {
    mkdirSync(process.env.HW_RECORD_DIR, { recursive: true });
    writeFileSync(path.join(process.env.HW_RECORD_DIR, `probe-${kind}-${o.nmOvs ? 'nmovs' : 'nm'}-fresh.txt`), await onHost(client, GATEWAY_PROBE));
  }

  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'ovs.yml');
  writeFileSync(inventory, labInventoryYaml({ ...state, hosts: [client] }));
  writeFileSync(playbook, '- hosts: all\n  gather_facts: false\n  roles:\n    - configure_ovs\n');
  const backend = o.nmOvs ? { configure_ovs_backend: 'nm' } : {};
  const role = (vars: Record<string, unknown> = {}, check = false) =>
    runRole(playbook, inventory, { configure_ovs_mode: 'uplink', configure_ovs_datapath_type: 'netdev', ...backend, ...vars }, check);

  const drillStart = Date.now();
  const drill = await role({ configure_ovs_confirm: false, configure_ovs_confirm_timeout: 15 });
  t.log(`${kind}: withheld confirmation, back after ${((Date.now() - drillStart) / 1000).toFixed(1)} s`);
  t.regex(drill.failed.join('\n'), /rolled back after [\d.]+ s: no confirmation from hostwire within 15 s/);
  t.notRegex(drill.failed.join('\n'), /NOT restored/);
  t.is(await snap(), snapBefore, `the rollback gave eth0 back exactly its addresses and routes (${nm ? 'NM re-activated the profile' : 'the kernel\'s SLAAC after a router solicitation'})`);
  if (nm) t.regex(await onHost(client, 'nmcli -t -f GENERAL.CONNECTION device show eth0'), /v6auto/);
  if (o.nmOvs) t.notRegex(await onHost(client, 'nmcli -t -f NAME connection show'), /ovs-/, 'no ovs-* profile left');

  const started = Date.now();
  const moved = await role();
  t.log(`${kind}: move ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(moved.failed, []);
  t.deepEqual(await v6('br-ex'), before, `the same ${kind} address on br-ex`);
  // Without RAs the default route is the profile's own: on br-ex NM's again (nm backend), or the move's `ip route
  // replace` and the boot oneshot's (ovs backend: proto boot, which ip does not print).
  const brExProto = kind === 'dhcp6only' && !o.nmOvs ? '' : `proto ${proto(kind)} `;
  const onBrEx = new RegExp(`^default via fe80::\\S+ dev br-ex ${brExProto}metric 48 `);
  t.regex(await onHost(client, 'ip -6 route show default'), onBrEx, 'the router\'s default route on br-ex at metric 48');
  t.is((await onHost(client, 'ip -o addr show dev eth0 scope global')).trim(), '');
  if (forwarding) t.is((await onHost(client, 'cat /proc/sys/net/ipv6/conf/br-ex/forwarding')).trim(), '1', 'br-ex forwards IPv6 and still took the RA');
  if (kind !== 'slaac') t.regex(await onHost(server, 'cat /run/hw-dhcp6.leases'), new RegExp(` ${addr} `), 'one lease, the same address');
  const nmSame = nmBefore && (() => nmKept(t, client, server, onHost, nmBefore));
  if (nmSame) await nmSame();
  let ping6 = await labPing(state, addr, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && ping6.code !== 0; i++) ping6 = await labPing(state, addr, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping6.code, 0, ping6.stdout);
  const [cmd, ...args] = labSshArgv(state, { ...client, ip: addr }, ['ip -o -6 addr show dev br-ex scope global'], ['-o', 'BatchMode=yes', '-o', `HostKeyAlias=${client.ip}`]);
  t.regex((await execa(cmd!, args)).stdout, new RegExp(`inet6 ${addr}/`), 'SSH over IPv6 reaches the host on br-ex at the same address');

  t.deepEqual((await role()).changed, [], 'second run');
  const checked = await role({}, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
  if (reboot) await afterReboot(t, lab, client, before, () => v6('br-ex'), onHost, role, onBrEx, nmSame);
  if (reboot && o.v6only) t.is((await onHost(client, 'ip -o -4 addr show scope global; ip -4 route show default')).trim(), '', 'IPv6-only after the reboot too: the lab seeded no IPv4');
}

interface NmLease { dhcp6: string; leases: string }

/** NM's DHCPv6 options on `dev` (DUID, IAID, address; FQDN left out) and the server's leases without their expiry. */
async function nmLease(client: HostState, server: HostState, onHost: OnHost, dev: string): Promise<NmLease> {
  const dhcp6 = (await onHost(client, `nmcli -t -f DHCP6 device show ${dev}`)).split('\n').filter((x) => /:(dhcp6_client_id|iaid|ip6_address) = /.test(x)).map((x) => x.replace(/^DHCP6\.OPTION\[\d+\]:/, '')).sort().join('\n');
  const leases = (await onHost(server, 'cat /run/hw-dhcp6.leases 2>/dev/null; true')).split('\n').filter((x) => /^\d+ /.test(x)).map((x) => x.replace(/^\d+ /, '')).sort().join('\n');
  return { dhcp6, leases };
}

/** nm backend: MCO's five profiles active; DHCPv6: br-ex's client sent eth0's DUID and IAID and got eth0's one lease again. */
async function nmKept(t: ExecutionContext, client: HostState, server: HostState, onHost: OnHost, before: NmLease): Promise<void> {
  t.is((await onHost(client, ACTIVE_PROFILES)).trim(), brExProfiles('eth0').trim(), 'MCO\'s five profiles active, eth0 br-ex\'s port');
  if (!before.dhcp6) return;
  t.deepEqual(await nmLease(client, server, onHost, 'br-ex'), before, 'the same DUID, IAID and address on br-ex; the server holds the one lease it had');
  const duid = /dhcp6_client_id = (\S+)/.exec(before.dhcp6)?.[1] ?? '(none shown)';
  t.is((await onHost(client, 'nmcli -g ipv6.dhcp-duid connection show ovs-if-br-ex')).trim().replaceAll('\\', ''), duid, 'ovs-if-br-ex carries eth0\'s DUID');
}

async function afterReboot(t: ExecutionContext, lab: string, client: HostState, before: string[], onBrEx: () => Promise<string[]>, onHost: OnHost,
  role: () => Promise<{ changed: string[] }>, defaultRoute: RegExp, nmSame?: () => Promise<void>): Promise<void> {
  // A power cycle: /run is empty, networkd not running (nm backend: the profiles in /run gone); the boot-time
  // oneshot writes its file and starts it again (nm backend: makes and activates the same profiles).
  const booted = Date.now();
  await labReboot(client.name, { name: lab, timeoutMs: 120_000 });
  let after: string[] = [];
  for (let i = 0; i < 60 && after.length < before.length; i++) { await sleep(1000); after = await onBrEx().catch(() => []); }
  t.log(`after the reboot the address is on br-ex ${((Date.now() - booted) / 1000).toFixed(1)} s after the power cycle`);
  t.deepEqual(after, before, 'the boot-time oneshot: the same address on br-ex');
  t.is((await onHost(client, 'systemctl is-active hostwire-configure-ovs.service')).trim(), 'active');
  let routes = '';
  for (let i = 0; i < 30 && !defaultRoute.test(routes); i++) { if (i) await sleep(1000); routes = await onHost(client, 'ip -6 route show default'); }
  t.regex(routes, defaultRoute);
  if (nmSame) await nmSame();
  t.deepEqual((await role()).changed, [], 'a run after the reboot');
}
