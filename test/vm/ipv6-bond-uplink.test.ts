// VM tier (npm run test:vm), issue 20: an IPv6-only node (a static IPv6 address and IPv6 default route on
// an active-backup bond of two NICs, no IPv4 anywhere on the uplink, eth0 down) moves onto br-ex with the
// kernel datapath, hostwire connected over IPv6 all along: the address and default route are on br-ex
// afterwards, SSH and ping answer over IPv6 on the same address, and a second run and --check change nothing.
// Before the move: with one port's cable cut the run is refused and nothing changes, and an injected failure
// (the IPv6 gateway, the default check target of an IPv6-only uplink, stops answering pings) rolls back within
// the window to exactly the bond it had. A host moved before IPv6-only uplinks had a check target (its env
// says CHECK='') is converged: a run changes nothing. After it:
// cutting the active port's cable fails over under br-ex (the gap is logged), and after a power cycle the boot
// oneshot puts the IPv6 address and default route back on br-ex.
import test from 'ava';
import { run, sleep } from '../../src/lab/run.js';
import { shellJoin } from '../../src/transports/quote.js';
import { labPing } from '../helpers/lab-ping.js';
import { activePort, assertMovedOntoBrEx, assertSecondRunIdle, atAddress, BOND_SNAPSHOT, esc, recordProbe, vmUplinkLab } from './bond-lab.js';
import { failoverDrill, rebootUntil, refusedWithPortDown, rollbackDrill } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const GW6 = 'fd21:6::1';
const HOST6 = 'fd21:6::11';

test.serial('IPv6-only bond uplink on a VM: a port down refused, rollback, move over IPv6, idempotent, --check, failover, reboot', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  const lab = await vmUplinkLab(t, LAB, 3);
  // The lab's namespace is the IPv6 gateway (an address on its bridge).
  await run('ip', ['-n', lab.state.netns, '-6', 'addr', 'add', `${GW6}/64`, 'dev', lab.state.bridge, 'nodad']);
  let at = Date.now();
  const steps = ['for d in eth0 eth1 eth2; do nmcli device set "$d" managed no 2>/dev/null || true; done',
    'ip link add bond0 type bond mode active-backup miimon 100', 'ip link set eth1 down', 'ip link set eth2 down',
    'ip link set eth1 master bond0', 'ip link set eth2 master bond0', 'ip link set bond0 type bond primary eth1', 'ip link set bond0 up',
    `ip -6 addr add ${HOST6}/64 dev bond0 nodad`, `ip -6 route replace default via ${GW6} dev bond0`,
    'ip addr flush dev eth0', 'ip link set eth0 down', `ping -6 -c3 -W2 ${GW6} >/dev/null || true`].join(' && ');
  await lab.sh(shellJoin(['systemd-run', '--quiet', '--collect', '--unit=v21-v6', 'sh', '-c', `sleep 1; ${steps}`]));
  const l = atAddress(lab, HOST6, GW6);
  let held = '';
  for (let i = 0; i < 100 && !held.includes(`inet6 ${HOST6}/64`); i++) {
    await sleep(3000);
    held = await l.sh('ip -o -6 addr show dev bond0 scope global 2>/dev/null; true', 60_000).catch(() => '');
  }
  t.regex(held, new RegExp(`inet6 ${esc(HOST6)}/64`), 'the host answers SSH over IPv6 on bond0');
  step('host on bond0 (IPv6 only)', at);
  t.is((await l.sh('ip -o -4 addr show scope global')).trim(), '', 'no IPv4 address anywhere');
  t.is((await l.sh('ip -4 route show default')).trim(), '', 'no IPv4 default route');
  await recordProbe(l, 'probe-ipv6-bond-fresh');

  // A port's cable cut: refused before anything changes (the move would run on half the redundancy).
  at = Date.now();
  await refusedWithPortDown(t, l, LAB, 'eth2', BOND_SNAPSHOT);
  step('refused with eth2 down', at);

  // Injected failure: the IPv6 gateway (the lab's namespace) stops answering pings; no check target is given,
  // so the default one - the IPv6 gateway, there being no IPv4 one - must catch it and roll back.
  const echo = (v: number) => run('ip', ['netns', 'exec', lab.state.netns, 'sysctl', '-q', '-w', `net.ipv6.icmp.echo_ignore_all=${v}`]);
  const before = await l.sh(BOND_SNAPSHOT);
  await echo(1);
  try {
    await rollbackDrill(t, l, { target: GW6, uplink: 'bond0', snapshot: BOND_SNAPSHOT, before, what: 'the bond, its IPv6 address and default route' });
  } finally {
    await echo(0);
  }

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move, 'bond0');
  t.regex(await l.sh('ip -6 route show default'), new RegExp(`default via ${esc(GW6)} dev br-ex (proto static )?metric 48`));
  t.is((await l.sh('ip -o addr show dev bond0 scope global')).trim(), '', 'bond0 holds no address');
  let ping = await labPing(l.state, HOST6, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && ping.code !== 0; i++) ping = await labPing(l.state, HOST6, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping.code, 0, `ping over IPv6 reaches the host on br-ex:\n${ping.stdout}`);
  const moved = await l.sh(BOND_SNAPSHOT);

  at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, moved);
  step('second run and --check', at);
  const env = '/etc/hostwire/configure-ovs/br-ex.env';
  t.regex(await l.sh(`cat ${env}`), new RegExp(`^CHECK='?${esc(GW6)}'?$`, 'm'), 'the move was checked by pinging the IPv6 gateway');
  // As a run before the IPv6 default check target left it: CHECK=''. Still converged, nothing re-moved.
  await l.sh(`sed -i "s/^CHECK=.*/CHECK=''/" ${env}`);
  await recordProbe(l, 'probe-ipv6-bond-moved-nocheck');
  at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, await l.sh(BOND_SNAPSHOT));
  step('a host moved before the IPv6 check target: second run and --check', at);

  // Failover: cut the active port's cable while the lab pings the IPv6 address every 50 ms.
  t.is(await activePort(l), 'eth1');
  await failoverDrill(t, l, LAB, 'eth1', 'eth2');

  // A reboot: the boot oneshot makes bond0 again and puts the IPv6 address and default route on br-ex.
  await rebootUntil(t, l, LAB, 'ip -o -6 addr show dev br-ex scope global', new RegExp(`inet6 ${esc(HOST6)}/64`));
  t.regex(await l.sh('ip -6 route show default'), new RegExp(`default via ${esc(GW6)} dev br-ex (proto static )?metric 48`));
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), 'bond0');
  t.regex(await l.sh('ovs-dpctl show'), /system@ovs-system[\s\S]*port \d+: bond0(\s|$)/m);
  t.is((await l.sh('ip -o addr show dev bond0 scope global')).trim(), '', 'bond0 holds no address');
  t.regex(await l.sh('cat /proc/net/bonding/bond0'), /active-backup[\s\S]*Primary Slave: eth1[\s\S]*Slave Interface: eth1\nMII Status: up[\s\S]*Slave Interface: eth2\nMII Status: up/);
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
