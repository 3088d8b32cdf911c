// VM tier (npm run test:vm), issue 20: an IPv6-only node (a static IPv6 address and IPv6 default route on
// an active-backup bond of two NICs, no IPv4 anywhere on the uplink, eth0 down) moves onto br-ex with the
// kernel datapath, hostwire connected over IPv6 all along: the address and default route are on br-ex
// afterwards, SSH and ping answer over IPv6 on the same address, and a second run and --check change nothing.
// Before the move: with one port's cable cut the run is refused and nothing changes, and an injected failure
// (an IPv6 check target nothing answers) rolls back within the window to exactly the bond it had. After it:
// cutting the active port's cable fails over under br-ex (the gap is logged), and after a power cycle the boot
// oneshot puts the IPv6 address and default route back on br-ex.
import test from 'ava';
import { run, sleep } from '../../src/lab/run.js';
import { shellJoin } from '../../src/transports/quote.js';
import { labPing } from '../helpers/lab-ping.js';
import { activePort, assertMovedOntoBrEx, assertSecondRunIdle, atAddress, BOND_SNAPSHOT, CONFIRM_TIMEOUT, esc, failure, journalSeconds, vmUplinkLab } from './bond-lab.js';
import { failoverDrill, rebootUntil, refusedWithPortDown } from './vm-drills.js';

const LAB = 'vm22v6';
const GW6 = 'fd21:6::1';
const HOST6 = 'fd21:6::11';

test.serial('IPv6-only bond uplink on a VM: a port down refused, rollback, move over IPv6, idempotent, --check, failover, reboot', async (t) => {
  t.timeout(29 * 60_000, 'the scenario\'s own deadline (below the VM tier\'s 30 min)');
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

  // A port's cable cut: refused before anything changes (the move would run on half the redundancy).
  at = Date.now();
  await refusedWithPortDown(t, l, LAB, 'eth2', BOND_SNAPSHOT);
  step('refused with eth2 down', at);

  // Injected failure: an IPv6 check target nothing answers. The host's check fails, it rolls back.
  const before = await l.sh(BOND_SNAPSHOT);
  at = Date.now();
  const dead = 'fd21:6::254';
  const bad = await l.role({ configure_ovs_check_targets: [dead] });
  step('injected failure run', at);
  t.is(bad.summary.exitCode, 2, failure(bad));
  const rolled = /rolled back after ([\d.]+) s: connectivity check failed: (\S+) does not answer through br-ex/.exec(failure(bad));
  t.is(rolled?.[2], dead, failure(bad));
  const apply = journalSeconds(failure(bad), /configure-ovs\[\d+\]: apply br-ex: uplink bond0/);
  const rollingBack = journalSeconds(failure(bad), /configure-ovs\[\d+\]: rolling back: connectivity check failed/);
  t.true(apply !== undefined && rollingBack !== undefined && rollingBack - apply < CONFIRM_TIMEOUT, `apply at ${apply}, rolling back at ${rollingBack}:\n${failure(bad)}`);
  t.log(`injected failure: rolling back ${(rollingBack! - apply!).toFixed(1)} s after the apply began (window ${CONFIRM_TIMEOUT} s), done ${rolled?.[1]} s after the transaction started`);
  t.is(await l.sh(BOND_SNAPSHOT), before, 'the rollback restores the bond, its IPv6 address and default route exactly');

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
