// VM tier (npm run test:vm), issue 20: the ovs backend moves a VLAN on a kernel-made bond whose IPv6 comes from
// router advertisements. The host's bond0.100 is VLAN 100 on an active-backup bond0 of eth1+eth2 made in the
// kernel (vlan-lab.ts; static IPv4 on the VLAN); the far end of the VLAN, the second VM, is its IPv6 router
// (dnsmasq, RAs every 10 s): SLAAC - the kernel's own on the kernel's VLAN (EUI-64, no NM anywhere) - or
// DHCPv6 - NM's client, the VLAN an NM profile (ipv6.method auto) on the kernel's bond. Each: an injected
// failure rolls back exactly (the same IPv6 address and RA default route back on the VLAN), the move keeps the
// address and the RA's default route at metric 48 on br-ex (systemd-networkd there: a static token / the same
// DUID+IAID) with the VLAN's static IPv4, SSH and ping over IPv6 reach it, a second run and --check change
// nothing, cutting the active port's cable fails over under br-ex (IPv6 pings, gap measured), and after a power
// cycle the boot oneshot makes bond0 and bond0.100 again and networkd brings the same address and route back.
import test, { type ExecutionContext } from 'ava';
import { readFile } from 'node:fs/promises';
import { sleep } from '../../src/lab/run.js';
import { consoleLog } from '../../src/lab/vm/qemu.js';
import { activePort, assertMovedOntoBrEx, assertSecondRunIdle, atAddress, esc, recordProbe, type VmUplinkLab } from './bond-lab.js';
import { LEASES6, raDefault, reachV6, v6Addr, type V6Kind } from './bond-ipv6-auto.js';
import { VLAN, VLAN_PREFIX6, VLAN_SNAPSHOT, vlanLab, vlanTheHost, type VlanLab } from './vlan-lab.js';
import { BOND_LINES, failoverDrill, idleAfterReboot, rebootUntil, rollbackDrill } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { scenarioLog } from './scenario-log.js';
import { vmLabName } from './lab-name.js';

const DEV = VLAN.dev;
/** VLAN_SNAPSHOT without the RA default route's countdown (`expires 1786sec`). */
const SNAP = `{ ${VLAN_SNAPSHOT}; } | sed -E 's/ expires [0-9]+sec//g'`;
const LEN: Record<V6Kind, string> = { slaac: '64', dhcp6: '128' };
const NM_VLAN = `nmcli -g GENERAL.CONNECTION device show ${DEV}`;

/** Until `dev` holds its `kind` address (in VLAN_PREFIX6) and the RA's default route, or what it holds after 240 s. */
async function autoOn(l: VmUplinkLab, dev: string, kind: V6Kind): Promise<string[]> {
  let got: string[] = [];
  for (const until = Date.now() + 240_000; Date.now() < until; await sleep(3000)) {
    got = await v6Addr(l, dev, VLAN_PREFIX6);
    if (got[1] === LEN[kind] && raDefault(dev, '\\d+').test(await l.sh('ip -6 route show default'))) return got;
  }
  return got;
}

/** What the move must leave on the host (after it and after the power cycle): the address, both default routes, bond and VLAN. */
async function assertOnBrEx(t: ExecutionContext, l: VmUplinkLab, kind: V6Kind, want: { addr: string; mac: string; bond: string }): Promise<void> {
  t.deepEqual(await autoOn(l, 'br-ex', kind), [want.addr, LEN[kind]], `the same ${kind} address on br-ex`);
  t.regex(await l.sh('ip -6 route show default'), raDefault('br-ex', '48'), 'the RA\'s default route on br-ex at metric 48');
  t.regex(await l.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${esc(VLAN.host4)}/24 `), 'the VLAN\'s static IPv4 on br-ex');
  t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(VLAN.gw4)} dev br-ex (proto static )?metric 48 *$`, 'm'));
  t.is((await l.sh(`ip -o addr show dev ${DEV} scope global; ip -o addr show dev bond0 scope global`)).trim(), '', 'the VLAN and the bond hold no address');
  t.regex(await l.sh(`ip -d -o link show dev ${DEV}`), new RegExp(`${esc(DEV)}@bond0: .*link/ether ${esc(want.mac)} .*vlan protocol 802\\.1Q id ${VLAN.id} `));
  t.is((await l.sh('cat /sys/class/net/br-ex/address')).trim(), want.mac, 'br-ex has the VLAN\'s MAC');
  t.deepEqual((await l.sh(BOND_LINES)).trim().split('\n').sort(), want.bond.trim().split('\n').sort(), 'the bond with its mode, options and ports as before');
  await reachV6(t, l, want.addr);
}

/** A failed scenario: the host's view (over the VLAN, else its serial console) and the router's, on stderr before the lab goes. */
async function diagnose(t: ExecutionContext, v: VlanLab, l: VmUplinkLab): Promise<void> {
  if (t.passed) return;
  const host = await l.sh(['ip -br addr; ip route; ip -6 route; ovs-vsctl show; cat /etc/hostwire/configure-ovs/br-ex.env',
    'journalctl -b --no-pager -o short-precise --since -25min | grep -E "configure-ovs|NetworkManager|systemd-networkd|dhcp" | tail -n 150; true'].join('; '), 90_000)
    .catch(async (e: Error) => `${e.message}\n${await readFile(consoleLog(l.host), 'utf8').then((c) => c.slice(-6000)).catch(() => '(no console log)')}`);
  const peer = await v.peerSh(`ip neigh; ip -6 neigh; journalctl -u v21-ra --no-pager -o short-precise | tail -n 40; cat ${LEASES6} 2>/dev/null; true`).catch((e: Error) => e.message);
  console.error(`--- the host after the failure:\n${host}\n--- the router:\n${peer}`);
}

/** The whole scenario: `kind` from the peer's RAs on the VLAN, taken by the kernel (slaac) or NM's VLAN profile (dhcp6). */
async function vlanIpv6AutoScenario(t: ExecutionContext, lab: string, kind: V6Kind): Promise<void> {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const { note, step } = scenarioLog(t, lab);
  const started = Date.now();
  let at = Date.now();
  const v: VlanLab = await vlanLab(t, lab, { ra: kind });
  const l = await vlanTheHost(v, kind === 'slaac' ? { v4: true } : { v4: true, kernelBond: true, v6Auto: true });
  t.teardown(() => diagnose(t, v, l));
  const [addr, len] = await autoOn(l, DEV, kind);
  t.is(len, LEN[kind], `${DEV} holds a ${kind} address in ${VLAN_PREFIX6}::/64 and the RA's default route`);
  step(`VMs up, host on ${DEV} (kernel bond, static IPv4, ${kind} ${addr}/${len})`, at);
  if (kind === 'slaac') t.regex(await l.sh(`ip -o -6 addr show dev ${DEV} scope global`), /dynamic mngtmpaddr/, 'the kernel\'s own SLAAC');
  else {
    t.is((await l.sh(NM_VLAN)).trim(), DEV, 'NM holds the VLAN under its own profile');
    t.regex(await v.peerSh(`cat ${LEASES6}`), new RegExp(` ${esc(addr!)} `), 'the DHCPv6 server leased it');
  }
  const mac = (await l.sh(`cat /sys/class/net/${DEV}/address`)).trim();
  const bond = await l.sh(BOND_LINES);
  t.regex(bond, /active-backup[\s\S]*Primary Slave: eth1[\s\S]*MII Polling Interval \(ms\): 100\nUp Delay \(ms\): 200/);
  const before = await l.sh(SNAP);
  await recordProbe(l, `probe-vlan-kbond-${kind}-fresh`);

  at = Date.now();
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: DEV, snapshot: SNAP, before, settleMs: 150_000,
    what: `the VLAN and the bond, the static IPv4, the ${kind} address and the RA default route` });
  if (kind === 'dhcp6') t.is((await l.sh(NM_VLAN)).trim(), DEV, 'NM holds the VLAN under its own profile again');
  step('injected failure rolled back', at);

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move, DEV);
  const env = await l.sh('cat /etc/hostwire/configure-ovs/br-ex.env');
  t.regex(env, /^METHOD6='?auto'?$/m, env);
  if (kind === 'dhcp6') {
    t.regex(env, /^DUID6='?[0-9a-f]{2}(:[0-9a-f]{2})+'?$/m, 'the DUID NM\'s client used');
    const leases = (await v.peerSh(`cat ${LEASES6}`)).split('\n').filter((s) => s.includes(`${VLAN_PREFIX6}::`));
    t.is(leases.length, 1, `one lease, the same address:\n${leases.join('\n')}`);
    t.true(leases[0]?.includes(` ${addr} `), leases[0]);
  }
  await assertOnBrEx(t, l, kind, { addr: addr!, mac, bond });
  await recordProbe(l, `probe-vlan-kbond-${kind}-moved`);
  at = Date.now();
  await assertSecondRunIdle(t, l, SNAP, await l.sh(SNAP));
  step('second run and --check', at);

  // Failover: cut the active port's cable while the lab pings the IPv6 address every 50 ms (through the peer).
  t.is(await activePort(l), 'eth1');
  const cut = await failoverDrill(t, atAddress(l, addr!, VLAN.gw6), lab, 'eth1', 'eth2');
  note(`eth1 cut under the VLAN, IPv6 pings: ${cut.lost} of 300 lost, longest gap ${cut.gap.toFixed(2)} s`);

  // A power cycle: only the boot oneshot makes bond0 and bond0.100 again and re-attaches the VLAN; networkd on
  // br-ex takes the same address (token / DUID+IAID) and the RA's route.
  at = Date.now();
  await rebootUntil(t, l, lab, 'ip -o -6 addr show dev br-ex scope global -tentative', new RegExp(`inet6 ${esc(addr!)}/${len} `));
  step(`power cycle until the ${kind} address is on br-ex`, at);
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), DEV);
  t.regex(await l.sh('ovs-dpctl show'), new RegExp(`system@ovs-system[\\s\\S]*port \\d+: ${esc(DEV)}(\\s|$)`, 'm'));
  await assertOnBrEx(t, l, kind, { addr: addr!, mac, bond });
  t.notRegex(await l.sh(`nmcli -t -f DEVICE,STATE device 2>/dev/null | grep -E "^(bond0|${esc(DEV)}|eth1|eth2|br-ex):"; true`), /:connected$/m, 'NetworkManager leaves the moved devices alone after the boot');
  at = Date.now();
  await idleAfterReboot(t, l, { uplink: DEV, eth0Ip: v.lab.ip });
  step('runs after the reboot (refused beside eth0, then idle)', at);
  t.deepEqual(await v6Addr(l, 'br-ex', VLAN_PREFIX6), [addr, len], `the same ${kind} address on br-ex still`);
  note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

test.serial('SLAAC (the kernel\'s) and static IPv4 on a VLAN on a kernel-made active-backup bond on a VM: rollback exactly, the move keeps the address and RA route, idempotent, --check, failover over IPv6, reboot', async (t) => {
  await vlanIpv6AutoScenario(t, vmLabName('ovsv6vb28s'), 'slaac');
});

test.serial('DHCPv6 (NM\'s VLAN profile) and static IPv4 on a VLAN on a kernel-made active-backup bond on a VM: rollback exactly, the move keeps the lease and RA route, idempotent, --check, failover over IPv6, reboot', async (t) => {
  await vlanIpv6AutoScenario(t, vmLabName('ovsv6vb28d'), 'dhcp6');
});
