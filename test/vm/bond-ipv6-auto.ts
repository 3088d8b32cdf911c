// VM-tier SLAAC / DHCPv6 on a bond (issue 20): the host's bond0 (eth1+eth2, active-backup) is made by
// NetworkManager profiles as an installer makes it - IPv4 static (hostwire's session), ipv6.method auto - and
// the lab's second VM is the IPv6 router: dnsmasq sends router advertisements every 10 s on the lab bridge,
// SLAAC only or sending hosts to its DHCPv6 range (NM's client takes a lease). The drills: an injected failure
// rolls back (the same IPv6 address and RA default route back on bond0 through NM), the move keeps that address
// and the RA's default route at metric 48 on br-ex (systemd-networkd there: a static token / the same DUID+IAID),
// SSH and ping over IPv6 reach it, a second run and --check change nothing, and after a power cycle the boot
// oneshot makes the bond again and networkd gets the same address and default route back on br-ex.
import type { ExecutionContext } from 'ava';
import { run, sleep } from '../../src/lab/run.js';
import { shellJoin } from '../../src/transports/quote.js';
import { labPing } from '../helpers/lab-ping.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, atAddress, BOND_SNAPSHOT, esc, recordProbe, type VmUplinkLab } from './bond-lab.js';
import { NM_DEVICES, nmBondUp, peerSh } from './bond-dhcp.js';
import { BOND_LINES, idleAfterReboot, rebootKeepsBond, rollbackDrill } from './vm-drills.js';

export type V6Kind = 'slaac' | 'dhcp6';

export const LEASES6 = '/run/vmx-dhcp6.leases';
/**
 * dnsmasq's ranges: RAs only (SLAAC), or RAs sending hosts to its DHCPv6 range (stateful, a /128 lease). The
 * router's eth0 takes no RAs (routedBond): a constructed prefix took its lifetimes from an address its kernel
 * had made by SLAAC from these very RAs, so they ran down (seen: 30 s left on the host ~20 min in).
 */
export const RANGES: Record<V6Kind, (p: string, dev?: string) => string[]> = {
  slaac: (_p, dev = 'eth0') => [`--dhcp-range=::,constructor:${dev},ra-only,64,10m`],
  dhcp6: (p) => [`--dhcp-range=${p}::100,${p}::1ff,64,10m`, `--dhcp-leasefile=${LEASES6}`],
};

/** The router's dnsmasq on `dev` (a /64 of `prefix` on it): RAs every 10 s, `kind`'s addressing (RANGES). */
export const raDnsmasq = (kind: V6Kind, prefix: string, dev: string, unit: string) => shellJoin(['systemd-run', '--quiet', `--unit=${unit}`, 'dnsmasq',
  '--keep-in-foreground', '--user=root', '--port=0', `--interface=${dev}`, '--bind-interfaces', '--enable-ra', `--ra-param=${dev},10,600`,
  ...RANGES[kind](prefix, dev), '--log-dhcp']);

/** BOND_SNAPSHOT without the RA default route's countdown (`expires 1786sec`). */
export const V6_SNAPSHOT = `{ ${BOND_SNAPSHOT}; } | sed -E 's/ expires [0-9]+sec//g'`;

export const raDefault = (dev: string, metric: string) => new RegExp(`^default via fe80::\\S+ dev ${dev} proto ra metric ${metric} `, 'm');

/** The address (and prefix length) in `prefix` that `dev` holds out of DAD, or []. */
export async function v6Addr(l: VmUplinkLab, dev: string, prefix: string): Promise<string[]> {
  const out = await l.sh(`ip -o -6 addr show dev ${dev} scope global -tentative 2>/dev/null; true`, 60_000).catch(() => '');
  return new RegExp(`inet6 (${esc(prefix)}::[0-9a-f:]+)/(\\d+) `).exec(out)?.slice(1) ?? [];
}

/**
 * Until `dev` holds an address in `prefix` of length `len` (out of DAD) and the RA's default route: [address,
 * length], or what it holds after `ms` (the caller asserts it).
 */
export async function untilRaAddr(l: VmUplinkLab, dev: string, prefix: string, len = '64', ms = 180_000): Promise<string[]> {
  let got: string[] = [];
  for (const until = Date.now() + ms; Date.now() < until; await sleep(3000)) {
    got = await v6Addr(l, dev, prefix);
    if (got[1] === len && raDefault(dev, '\\d+').test(await l.sh('ip -6 route show default').catch(() => ''))) return got;
  }
  return got;
}

/**
 * The router first (the lab's namespace gets `prefix::1` to reach the host over IPv6, the second VM `prefix::2`
 * and dnsmasq), then the host's NM bond; waits until bond0 holds its IPv4 address, its IPv6 one (`kind`) and the
 * RA's default route. Returns [address, prefix length].
 */
export async function routedBond(l: VmUplinkLab, kind: V6Kind, prefix: string, nmOptions: string): Promise<string[]> {
  await run('ip', ['-n', l.state.netns, '-6', 'addr', 'add', `${prefix}::1/64`, 'dev', l.state.bridge, 'nodad']);
  // The router takes no RAs itself (see RANGES).
  await peerSh(l, `sysctl -qw net.ipv6.conf.eth0.accept_ra=0 && ip -6 addr add ${prefix}::2/64 dev eth0 nodad`);
  await peerSh(l, raDnsmasq(kind, prefix, 'eth0', 'vmx-ra'));
  await nmBondUp(l, nmOptions, ['ipv4.method', 'manual', 'ipv4.addresses', `${l.ip}/24`, 'ipv4.gateway', l.gw, 'ipv6.method', 'auto']);
  const len = kind === 'slaac' ? '64' : '128';
  for (const until = Date.now() + 300_000; ;) {
    await sleep(3000);
    const v4 = await l.sh('ip -o -4 addr show dev bond0 2>/dev/null; ip -6 route show default dev bond0 2>/dev/null; true', 60_000).catch(() => '');
    const v6 = await v6Addr(l, 'bond0', prefix);
    if (v4.includes(`inet ${l.ip}/24`) && v6[1] === len && /proto ra/.test(v4)) return v6;
    if (Date.now() > until) {
      const why = await peerSh(l, 'journalctl -u vmx-ra --no-pager | tail -20; true').catch((e: Error) => e.message);
      throw new Error(`bond0 holds no ${kind} address (/${len}) and RA default route after 300 s:\n${v4}\n${v6.join('/')}\nthe router's log:\n${why}`);
    }
  }
}

/** The whole scenario on the lab `l` (two VMs, the second the router), with `kind`'s addressing on the bond. */
export async function ipv6AutoBondScenario(t: ExecutionContext, l: VmUplinkLab, lab: string, kind: V6Kind, prefix: string): Promise<void> {
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  let at = Date.now();
  const [addr, len] = await routedBond(l, kind, prefix, 'mode=active-backup,miimon=100,updelay=200,primary=eth1');
  step(`host on bond0 (NM; IPv4 static, ${kind} ${addr}/${len})`, at);
  t.regex(await l.sh('nmcli -g GENERAL.CONNECTION device show bond0'), /^bond0$/m, 'through NetworkManager');
  if (kind === 'slaac') t.regex(await l.sh('ip -o -6 addr show dev bond0 scope global'), /dynamic noprefixroute/, 'NM\'s own SLAAC');
  else t.regex(await peerSh(l, `cat ${LEASES6}`), new RegExp(` ${esc(addr!)} `), 'the DHCPv6 server leased it');
  const before = await l.sh(V6_SNAPSHOT);
  t.regex(before, raDefault('bond0', '\\d+'));
  const bondBefore = await l.sh(BOND_LINES);
  const nmBefore = await l.sh(NM_DEVICES);
  await recordProbe(l, `probe-bond-${kind}-fresh`);

  // Injected failure: a check target nothing answers; NM gives bond0 its IPv6 (and IPv4) back.
  const dead = l.gw.replace(/\.\d+$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: 'bond0', snapshot: V6_SNAPSHOT, before,
    what: `the bond, its static IPv4, its ${kind} address and RA default route`, settleMs: 120_000 });
  t.is(await l.sh(NM_DEVICES), nmBefore, 'NetworkManager holds the bond and its ports again as before');

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move);
  t.deepEqual(await v6Addr(l, 'br-ex', prefix), [addr, len], `the same ${kind} address on br-ex`);
  t.regex(await l.sh('ip -6 route show default'), raDefault('br-ex', '48'), 'the RA\'s default route on br-ex at metric 48');
  t.is((await l.sh('ip -o addr show dev bond0 scope global')).trim(), '', 'bond0 holds no address');
  t.is(await l.sh(BOND_LINES), bondBefore, 'bond options and ports kept');
  const env = await l.sh('cat /etc/hostwire/configure-ovs/br-ex.env');
  t.regex(env, /^METHOD6='?auto'?$/m, env);
  if (kind === 'dhcp6') {
    t.regex(env, /^DUID6='?[0-9a-f]{2}(:[0-9a-f]{2})+'?$/m, 'the DUID NM\'s client used');
    const leases = (await peerSh(l, `cat ${LEASES6}`)).split('\n').filter((s) => s.includes(`${prefix}::`));
    t.is(leases.length, 1, `one lease, the same address:\n${leases.join('\n')}`);
    t.true(leases[0]?.includes(` ${addr} `), leases[0]);
  }
  await reachV6(t, l, addr!);
  await recordProbe(l, `probe-bond-${kind}-moved`);
  at = Date.now();
  await assertSecondRunIdle(t, l, V6_SNAPSHOT, await l.sh(V6_SNAPSHOT));
  step('second run and --check', at);

  // A power cycle: the boot oneshot makes bond0 again, networkd on br-ex takes the same address and the RA's route.
  await rebootKeepsBond(t, l, lab, 'ip -o -6 addr show dev br-ex scope global -tentative', new RegExp(`inet6 ${esc(addr!)}/${len} `), bondBefore);
  let routes = '';
  for (let i = 0; i < 30 && !raDefault('br-ex', '48').test(routes); i++) {
    routes = await l.sh('ip -6 route show default');
    if (!raDefault('br-ex', '48').test(routes)) await sleep(2000);
  }
  t.regex(routes, raDefault('br-ex', '48'), 'after the reboot the RA\'s default route on br-ex at metric 48');
  await reachV6(t, l, addr!);
  at = Date.now();
  await idleAfterReboot(t, l);
  step('runs after the reboot (refused beside eth0, then idle)', at);
  t.deepEqual(await v6Addr(l, 'br-ex', prefix), [addr, len], `the same ${kind} address on br-ex still`);
}

/** The lab's namespace reaches `addr` over IPv6: ping, and SSH (the host answers on br-ex). */
export async function reachV6(t: ExecutionContext, l: VmUplinkLab, addr: string): Promise<void> {
  let ping = await labPing(l.state, addr, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && ping.code !== 0; i++) ping = await labPing(l.state, addr, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping.code, 0, `ping over IPv6 reaches ${addr}:\n${ping.stdout}`);
  t.regex(await atAddress(l, addr, l.gw).sh('ip -o -6 addr show dev br-ex scope global'), new RegExp(`inet6 ${esc(addr)}/`), 'SSH over IPv6 reaches the host on br-ex at the same address');
}
