// VM tier (npm run test:vm), issue 20: a static node address (IPv4 and IPv6, a default route of each) on
// VLAN 100 over a plain NIC (eth1.100, eth0 and eth2 down) moves onto br-ex with the kernel datapath. The far
// end of the VLAN is the second VM of vlan-lab.ts. An injected failure (a check target nothing answers) rolls
// back within the window to exactly the VLAN it had; the move keeps SSH on the same address with eth1.100 as
// br-ex's one port, both families' addresses and default routes on br-ex; a second run and --check change
// nothing; after a power cycle the boot oneshot makes eth1.100 again and re-attaches it.
import test from 'ava';
import { assertMovedOntoBrEx, assertSecondRunIdle, esc, type VmUplinkLab } from './bond-lab.js';
import { VLAN, vlanLab, vlanOnNic, vlanSnapshot } from './vlan-lab.js';
import { rebootUntil, rollbackDrill } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const DEV = `eth1.${VLAN.id}`;
const SNAP = vlanSnapshot(DEV);

async function assertOnBrEx(t: import('ava').ExecutionContext, l: VmUplinkLab, mac: string): Promise<void> {
  t.regex(await l.sh('ip -o -6 addr show dev br-ex scope global'), new RegExp(`inet6 ${esc(VLAN.host6)}/64`), 'the IPv6 address on br-ex');
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev br-ex (proto static )?metric 48`));
  t.regex(await l.sh('ip -6 route show default'), new RegExp(`default via ${esc(VLAN.gw6)} dev br-ex (proto static )?metric 48`));
  t.is((await l.sh(`ip -o addr show dev ${DEV} scope global`)).trim(), '', 'the VLAN device holds no address');
  t.regex(await l.sh(`ip -d -o link show dev ${DEV}`), new RegExp(`${esc(DEV)}@eth1: .*link/ether ${esc(mac)} .*vlan protocol 802\\.1Q id ${VLAN.id} `));
  t.regex(await l.sh('ip -o link show dev br-ex'), new RegExp(`link/ether ${esc(mac)} `), 'br-ex has the VLAN\'s MAC');
}

test.serial('VLAN on a plain NIC, dual-stack static: rollback, move, idempotent, --check, reboot', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  const v = await vlanLab(t, LAB);
  let at = Date.now();
  const l = await vlanOnNic(t, v, { v6: true });
  step(`host on ${DEV} (v4+v6)`, at);
  const mac = (await l.sh(`cat /sys/class/net/${DEV}/address`)).trim();
  const before = await l.sh(SNAP);
  t.regex(before, new RegExp(`${esc(DEV)} inet ${esc(VLAN.host4)}/24[\\s\\S]*${esc(DEV)} inet6 ${esc(VLAN.host6)}/64`));

  // Injected failure: a check target nothing answers. The host's check fails, it rolls back.
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: DEV, snapshot: SNAP, before, what: 'the VLAN, both families\' addresses and routes' });

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move, DEV);
  await assertOnBrEx(t, l, mac);
  const moved = await l.sh(SNAP);

  at = Date.now();
  await assertSecondRunIdle(t, l, SNAP, moved);
  step('second run and --check', at);

  // A reboot: nothing but the boot oneshot makes eth1.100 again and re-attaches it.
  await rebootUntil(t, l, LAB, 'ip -o -4 addr show dev br-ex', new RegExp(`inet ${esc(VLAN.host4)}/24`));
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), DEV);
  t.regex(await l.sh('ovs-dpctl show'), new RegExp(`system@ovs-system[\\s\\S]*port \\d+: ${esc(DEV)}(\\s|$)`, 'm'));
  await assertOnBrEx(t, l, mac);
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
