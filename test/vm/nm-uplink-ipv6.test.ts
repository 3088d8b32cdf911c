// configure_ovs (mode uplink) with the nm backend on static IPv6 uplinks, for real: a lab host whose NM has
// its OVS plugin (`lab up --nm-ovs`, netdev datapath), eth0 configured by an NM profile - dual-stack (IPv4 +
// IPv6, a default route and DNS server of each) or IPv6-only (ipv4.method disabled; hostwire connects over
// IPv6 throughout). Both carry static routes besides the default ones - IPv4 10.99.0.0/16 (dual-stack) and IPv6
// fd5c:99::/48, each via its family's gateway at a metric of its own - which must move too. A withheld confirmation puts the host back exactly (NM re-activates the profile, no ovs-*
// profile left); the move gives MCO's five profiles with ovs-if-br-ex carrying ipv6.method manual, the
// addresses, the gateway and route metric 48, the profile's DNS, the static routes (ipv4.routes/ipv6.routes, same
// gateway and metric on br-ex); the lab reaches the host over IPv6 (ping,
// SSH) on br-ex; a second run and --check change nothing; after `lab reboot` the boot oneshot makes the same
// profiles, the default route(s), the static route and DNS come back, SSH over IPv6 on br-ex at the same address,
// a run changes nothing (IPv6-only: the host writes the lab's marker, so eth0 boots without the lab's IPv4
// address, and no IPv4 is anywhere after it). In the VM tier (npm run test:vm): the first build of NM with OVS
// takes ~6 min per machine.
import test, { type ExecutionContext } from 'ava';
import { run, sleep } from '../../src/lab/run.js';
import { shellJoin } from '../../src/transports/quote.js';
import { labPing } from '../helpers/lab-ping.js';
import { ACTIVE_PROFILES, brExProfiles, IF_BR_EX_IP } from '../helpers/nm-backend.js';
import { SNAPSHOT, uplinkLab } from '../roles-lab/uplink-helpers.js';
import type { RoleRun } from '../roles-lab/sdn-agent-helpers.js';
import { atAddress, esc, failure, recordProbe, type VmUplinkLab } from './bond-lab.js';
import { rebootUntil } from './vm-drills.js';
import { vmSh } from './vm-ssh.js';
import { vmLabName } from './lab-name.js';

const NM = { configure_ovs_backend: 'nm', configure_ovs_datapath_type: 'netdev' };

/** The scenario's static routes on `dev` (none of them elsewhere: they are asked for by device). */
const extraRoutes = (l: VmUplinkLab, dev: string) => l.sh(`ip route show 10.99.0.0/16 dev ${dev} 2>/dev/null; ip -6 route show fd5c:99::/48 dev ${dev} 2>/dev/null; true`);

async function scenario(t: ExecutionContext, lab: string, prefix: string, v6only: boolean): Promise<void> {
  const gw6 = `${prefix}::1`;
  const host6 = `${prefix}::11`;
  const dns6 = `${prefix}::53`;
  const u = await uplinkLab(t, lab, 1_500_000, { nmOvs: true });
  t.timeout(420_000, `${lab}: the test's own deadline once the lab is up`);
  const host = u.host.state.hosts[0]!;
  const v4: VmUplinkLab = { state: u.host.state, host, ip: u.ip, gw: u.gw, dir: u.dir, playbook: u.playbook,
    sh: (cmd, ms) => vmSh(u.host.state, host, cmd, ms), role: u.role };
  // The lab's namespace is the IPv6 gateway (an address on its bridge), as it is the IPv4 one.
  await run('ip', ['-n', u.host.state.netns, '-6', 'addr', 'add', `${gw6}/64`, 'dev', u.host.state.bridge, 'nodad']);
  // Static routes besides the default ones, at metrics of their own, which must move too.
  const ip4 = v6only ? ['ipv4.method', 'disabled'] : ['ipv4.method', 'manual', 'ipv4.addresses', `${u.ip}/24`, 'ipv4.gateway', u.gw, 'ipv4.dns', u.gw, 'ipv4.routes', `10.99.0.0/16 ${u.gw} 200`];
  const profile = shellJoin(['nmcli', 'connection', 'add', 'type', 'ethernet', 'con-name', 'static0', 'ifname', 'eth0', ...ip4,
    'ipv6.method', 'manual', 'ipv6.addresses', `${host6}/64`, 'ipv6.gateway', gw6, 'ipv6.dns', dns6, 'ipv6.routes', `fd5c:99::/48 ${gw6} 300`]);
  await v4.sh(shellJoin(['systemd-run', '--quiet', '--collect', '--unit=hw-static0', 'sh', '-c', `sleep 1; ${profile} && nmcli connection up static0`]));
  // From here on the host is also (IPv6-only: only) reached at its IPv6 address.
  const l = atAddress(v4, host6, gw6);
  const role = (vars: Record<string, unknown> = {}, check = false) => l.role({ ...NM, ...(v6only ? { configure_ovs_check_targets: [gw6] } : {}), ...vars }, check);
  let held = '';
  for (let i = 0; i < 40 && !/static0[\s\S]*inet6 /.test(held); i++) {
    await sleep(1500);
    held = await l.sh('nmcli -g GENERAL.CONNECTION device show eth0; ip -o -6 addr show dev eth0 scope global -tentative', 30_000).catch(() => '');
  }
  t.regex(held, new RegExp(`static0[\\s\\S]*inet6 ${esc(host6)}/64`), 'eth0 holds its profile\'s IPv6 address (SSH over IPv6)');
  t.is((await l.sh('ip -o -4 addr show dev eth0 scope global')).trim() === '', v6only, v6only ? 'no IPv4 on eth0' : 'IPv4 on eth0');
  const before = await l.sh(SNAPSHOT);
  const routeBefore = await extraRoutes(l, 'eth0');
  t.regex(routeBefore, new RegExp(`${v6only ? '' : `^10\\.99\\.0\\.0/16 via ${esc(u.gw)} proto static metric 200 *\n`}fd5c:99::/48 via ${esc(gw6)} proto static metric 300 pref medium *$`), 'the profile\'s static routes on eth0');
  await recordProbe(l, `probe-nm-routes-${v6only ? 'v6only' : 'dual'}-fresh`);
  const resolv = await l.sh('cat /etc/resolv.conf');
  t.regex(resolv, new RegExp(`nameserver ${esc(dns6)}`));

  const drill = await role({ configure_ovs_confirm: false, configure_ovs_confirm_timeout: 15 });
  t.regex(failure(drill), /rolled back after [\d.]+ s: no confirmation from hostwire within 15 s/);
  t.log(`withheld confirmation: ${/rolled back after ([\d.]+) s/.exec(failure(drill))?.[1]} s on the host`);
  let after = '';
  for (let i = 0; i < 10 && after !== before; i++) { // NM's DAD of the re-activated IPv6 address
    after = await l.sh(SNAPSHOT);
    if (after !== before) await sleep(1000);
  }
  t.is(after, before, 'the host is exactly as before, both families');
  t.is(await extraRoutes(l, 'eth0'), routeBefore, 'the static routes back on eth0 exactly (gateway, metric)');
  t.is((await l.sh('nmcli -g GENERAL.CONNECTION device show eth0')).trim(), 'static0', 'NM holds eth0 with its profile again');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /ovs-/);

  const started = Date.now();
  const moved = await role();
  t.log(`${v6only ? 'IPv6-only' : 'dual-stack'} move with the nm backend: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(moved.failed, []);
  t.true(moved.changed.length > 0);
  t.is((await l.sh(ACTIVE_PROFILES)).trim(), brExProfiles('eth0').trim());
  const ifBr = (await l.sh(IF_BR_EX_IP)).split('\n');
  t.deepEqual(ifBr.slice(0, 5), v6only ? ['disabled', '', '', '48', ''] : ['manual', `${u.ip}/24`, u.gw, '48', u.gw]);
  t.deepEqual(ifBr.slice(5, 10).map((x) => x.replaceAll('\\', '')), ['manual', `${host6}/64`, gw6, '48', dns6], 'ovs-if-br-ex: IPv6 manual, address, gateway, metric 48, DNS');
  t.regex(await l.sh('ip -o -6 addr show dev br-ex scope global'), new RegExp(`inet6 ${esc(host6)}/64`));
  t.regex(await l.sh('ip -6 route show default'), new RegExp(`^default via ${esc(gw6)} dev br-ex proto static metric 48 `, 'm'));
  if (v6only) t.is((await l.sh('ip -o -4 addr show scope global; ip -4 route show default')).trim(), '', 'no IPv4 anywhere');
  else t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(u.gw)} dev br-ex proto static metric 48 *$`, 'm'));
  t.is((await l.sh('ip -o addr show dev eth0 scope global')).trim(), '', 'eth0 holds no address');
  t.is(await extraRoutes(l, 'br-ex'), routeBefore, 'the static routes moved onto br-ex with their gateways and metrics');
  t.deepEqual((await l.sh('nmcli -g ipv4.routes,ipv6.routes connection show ovs-if-br-ex')).split('\n').slice(0, 2).map((x) => x.replaceAll('\\', '')),
    [v6only ? '' : `10.99.0.0/16 ${u.gw} 200`, `fd5c:99::/48 ${gw6} 300`], 'ovs-if-br-ex carries the routes with their metrics');
  await recordProbe(l, `probe-nm-routes-${v6only ? 'v6only' : 'dual'}-moved`);
  t.is(await l.sh('cat /etc/resolv.conf'), resolv, 'resolv.conf (the DNS servers) as before');
  let ping6 = await labPing(l.state, host6, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && ping6.code !== 0; i++) ping6 = await labPing(l.state, host6, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping6.code, 0, `ping over IPv6 reaches the host on br-ex:\n${ping6.stdout}`);

  const movedState = await l.sh(SNAPSHOT);
  t.deepEqual((await role()).changed, [], 'second run');
  const checked = await role({}, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
  t.is(await l.sh(SNAPSHOT), movedState, 'the second run and --check touched nothing');
  // IPv6-only: the lab must not seed eth0's IPv4 address at boot (src/lab/network.ts, IPV6_ONLY_MARKER).
  if (v6only) await l.sh(shellJoin(['sh', '-c', 'mkdir -p /var/lib/hostwire && echo "$1" >/var/lib/hostwire/lab-ipv6-only', 'sh', host6]));
  await afterReboot(t, l, lab, { host6, gw6, gw4: v6only ? undefined : u.gw, route: routeBefore, resolv }, role);
}

/**
 * The profiles live in /run, so after a power cycle (dual-stack: eth0 seeded with its lab IPv4 address again;
 * IPv6-only: eth0 bare, the lab's marker) the boot oneshot must make and activate the same five profiles: the
 * default route(s) at metric 48 on br-ex, the static route, the DNS servers, SSH and ping over IPv6 on br-ex
 * at the same address; a run afterwards changes nothing.
 */
async function afterReboot(t: ExecutionContext, l: VmUplinkLab, lab: string, was: { host6: string; gw6: string; gw4?: string; route: string; resolv: string },
  role: () => Promise<RoleRun>): Promise<void> {
  const profiles = await l.sh(ACTIVE_PROFILES);
  const ifBr = await l.sh(IF_BR_EX_IP);
  const moved = await l.sh(SNAPSHOT);
  const v4 = was.gw4 ? `[\\s\\S]*^default via ${esc(was.gw4)} dev br-ex proto static metric 48` : '';
  const want = new RegExp(`inet6 ${esc(was.host6)}/64[\\s\\S]*^default via ${esc(was.gw6)} dev br-ex proto static metric 48 ${v4}`, 'm');
  await rebootUntil(t, l, lab, 'ip -o -6 addr show dev br-ex scope global -tentative; ip -6 route show default; ip route show default', want, 120_000);
  t.is(await l.sh(ACTIVE_PROFILES), profiles, 'the same five profiles active after the reboot');
  t.is(await l.sh(IF_BR_EX_IP), ifBr, 'ovs-if-br-ex made with the same IP settings');
  t.is(await extraRoutes(l, 'br-ex'), was.route, 'the static routes back on br-ex (gateways, metrics)');
  t.is(await l.sh('cat /etc/resolv.conf'), was.resolv, 'resolv.conf as before the move');
  t.is(await l.sh(SNAPSHOT), moved, 'addresses, routes, links, OVS, nft and files as before the reboot');
  if (!was.gw4) t.is((await l.sh('ip -o -4 addr show scope global; ip -4 route show default')).trim(), '', 'IPv6-only: no IPv4 anywhere after the reboot');
  const ping6 = await labPing(l.state, was.host6, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping6.code, 0, `ping over IPv6 reaches the host on br-ex after the reboot:\n${ping6.stdout}`);
  t.deepEqual((await role()).changed, [], 'a run after the reboot');
}

test.serial('nm backend, dual-stack static uplink (NM profile): rollback exactly, IPv6 on ovs-if-br-ex, idempotent, back after a reboot', (t) => scenario(t, vmLabName('r6nmdual'), 'fd5c:8b', false));
test.serial('nm backend, IPv6-only static uplink (hostwire over IPv6): rollback exactly, IPv6 on ovs-if-br-ex, idempotent, back after a reboot', (t) => scenario(t, vmLabName('r6nmv6only'), 'fd5c:8c', true));
