// VM tier (npm run test:vm), issue 20: a dual-stack node address (static IPv4 and IPv6, a default route of
// each family) on VLAN 100 over an active-backup bond of two NICs moves onto br-ex with the kernel datapath.
// The far end of the VLAN is a second VM that routes it to the lab (vlan-lab.ts). An injected failure (a
// check target nothing answers) rolls back within the window to exactly the VLAN and bond it had; the move
// keeps SSH on the same address with bond0.100 as br-ex's one port, both families' addresses and default
// routes, the bond's options and the VLAN; a second run and --check change nothing; cutting the active
// port's cable fails over (the gap is logged); a reboot (`lab reboot`) keeps it all (the boot oneshot makes
// the bond and the VLAN again and re-attaches the VLAN).
import test from 'ava';
import { labReboot } from '../../src/lab/index.js';
import { labSetLink } from '../../src/lab/lab-link.js';
import { sleep } from '../../src/lab/run.js';
import { labPing } from '../helpers/lab-ping.js';
import { activePort, assertMovedOntoBrEx, assertSecondRunIdle, esc, longestGap, type VmUplinkLab } from './bond-lab.js';
import { rollbackDrill } from './vm-drills.js';
import { VLAN, VLAN_SNAPSHOT, vlanLab, vlanTheHost } from './vlan-lab.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';

const LAB = 'v21vlan';

/** What the move must leave on the host, asserted after the move and again after a reboot. */
async function assertVlanOnBrEx(t: import('ava').ExecutionContext, l: VmUplinkLab, mac: string): Promise<void> {
  t.regex(await l.sh('ip -o -6 addr show dev br-ex scope global'), new RegExp(`inet6 ${esc(VLAN.host6)}/64`), 'the IPv6 address on br-ex');
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev br-ex (proto static )?metric 48`));
  t.regex(await l.sh('ip -6 route show default'), new RegExp(`default via ${esc(VLAN.gw6)} dev br-ex (proto static )?metric 48`));
  t.is((await l.sh(`ip -o addr show dev ${VLAN.dev} scope global`)).trim(), '', 'the VLAN device holds no address');
  t.regex(await l.sh(`ip -d -o link show dev ${VLAN.dev}`), new RegExp(`${esc(VLAN.dev)}@bond0: .*link/ether ${esc(mac)} .*vlan protocol 802\\.1Q id ${VLAN.id} `));
  t.regex(await l.sh('ip -o link show dev br-ex'), new RegExp(`link/ether ${esc(mac)} `), 'br-ex has the VLAN\'s MAC');
  const bond = await l.sh('cat /proc/net/bonding/bond0');
  t.regex(bond, /Bonding Mode: fault-tolerance \(active-backup\)[\s\S]*Primary Slave: eth1[\s\S]*MII Polling Interval \(ms\): 100\nUp Delay \(ms\): 200/);
  t.regex(bond, /Slave Interface: eth1\nMII Status: up[\s\S]*Slave Interface: eth2\nMII Status: up/);
}

async function ping6(l: VmUplinkLab) {
  let r = await labPing(l.state, VLAN.host6, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && r.code !== 0; i++) r = await labPing(l.state, VLAN.host6, ['-6', '-c3', '-i0.5', '-W3']);
  return r;
}

test.serial('VLAN on an active-backup bond, dual-stack static: rollback, move, idempotent, --check, failover, reboot', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  const v = await vlanLab(t, LAB);
  let at = Date.now();
  const l = await vlanTheHost(v, { v4: true, v6: true });
  step('host on bond0.100 (v4+v6)', at);
  const mac = (await l.sh(`cat /sys/class/net/${VLAN.dev}/address`)).trim();
  const before = await l.sh(VLAN_SNAPSHOT);
  t.regex(before, new RegExp(`${esc(VLAN.dev)} inet ${esc(VLAN.host4)}/24[\\s\\S]*${esc(VLAN.dev)} inet6 ${esc(VLAN.host6)}/64`));
  t.regex(before, /vlan protocol 802\.1Q id 100/);

  // Injected failure: a check target nothing answers. The host's check fails, it rolls back.
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: VLAN.dev, snapshot: VLAN_SNAPSHOT, before, what: 'the VLAN, the bond, both families\' addresses and routes' });

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move, VLAN.dev);
  await assertVlanOnBrEx(t, l, mac);
  const p6 = await ping6(l);
  t.is(p6.code, 0, `IPv6 reaches the host on br-ex:\n${p6.stdout}`);
  const moved = await l.sh(VLAN_SNAPSHOT);

  at = Date.now();
  await assertSecondRunIdle(t, l, VLAN_SNAPSHOT, moved);
  step('second run and --check', at);

  // Failover: cut the active port's cable while the lab pings the host's VLAN address every 50 ms.
  t.is(await activePort(l), 'eth1');
  const count = 300;
  const pinging = labPing(l.state, l.ip, ['-i', '0.05', '-c', String(count), '-W', '1'], 120_000);
  await sleep(3000);
  await labSetLink(l.host.name, 'eth1', 'down', { name: LAB });
  const ping = await pinging;
  const received = Number(/(\d+) received/.exec(ping.stdout)?.[1] ?? 0);
  const gap = longestGap(ping.stdout, 0.05, count);
  t.log(`failover eth1 -> ${await activePort(l)} under the VLAN: ${count - received} of ${count} pings lost, longest gap ${gap.toFixed(2)} s`);
  t.is(await activePort(l), 'eth2');
  t.true(received > count / 2, `the host kept answering through eth2 (${received} of ${count}):\n${ping.stdout.slice(-400)}`);
  t.true(gap < 10, `gap ${gap} s`);
  await labSetLink(l.host.name, 'eth1', 'up', { name: LAB });
  let back = '';
  for (let i = 0; i < 20 && back !== 'eth1'; i++) {
    await sleep(1500);
    back = await activePort(l);
  }
  t.is(back, 'eth1', 'the primary port takes over again once its cable is back');

  // A reboot: nothing but the boot oneshot makes bond0 and bond0.100 again and re-attaches the VLAN.
  at = Date.now();
  await labReboot(l.host.name, { name: LAB, timeoutMs: 12 * 60_000 });
  step('reboot (lab address answering)', at);
  let onBridge = '';
  for (let i = 0; i < 100 && !onBridge.includes(`inet ${VLAN.host4}/`); i++) {
    onBridge = await l.sh('ip -o -4 addr show dev br-ex 2>/dev/null; true', 60_000).catch(() => '');
    if (!onBridge.includes(`inet ${VLAN.host4}/`)) await sleep(3000);
  }
  step('reboot (node address on br-ex, SSH on it)', at);
  t.regex(onBridge, new RegExp(`inet ${esc(VLAN.host4)}/24`), 'after the reboot the node address is on br-ex again');
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), VLAN.dev);
  t.regex(await l.sh('ovs-dpctl show'), new RegExp(`system@ovs-system[\\s\\S]*port \\d+: ${esc(VLAN.dev)}(\\s|$)`, 'm'));
  t.is((await l.sh('systemctl is-active hostwire-configure-ovs.service; true')).trim(), 'active', 'the boot oneshot ran');
  await assertVlanOnBrEx(t, l, mac);
  const after = await ping6(l);
  t.is(after.code, 0, `IPv6 reaches the host on br-ex after the reboot:\n${after.stdout}`);
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
