// VM tier (npm run test:vm), issue 20: an 802.3ad (LACP) bond uplink moves onto br-ex. Two VM hosts: the
// host under test has bond0 (802.3ad, lacp_rate fast, xmit_hash_policy layer3+4) over eth1+eth2, wired
// point-to-point to the second VM, which plays the switch: its own LACP bond over the two wires in a Linux
// bridge with its eth3 on the lab bridge, so the lab (and the controller) reach the host's address through
// the aggregate. After the move: SSH on the same address, bond0 one port of br-ex on the kernel datapath,
// the LACP partner still aggregated, a second run and --check change nothing, a cut port fails over. The
// bond is dual-stack (static IPv4 and IPv6, a default route of each; the lab's namespace is the IPv6
// gateway): both families move, and an injected failure (a gateway nothing answers) first rolls back within
// the window to exactly the LACP bond it had, still aggregated with its partner; after a power cycle the boot
// oneshot makes the LACP bond again (aggregated again) and re-attaches it, both families back on br-ex, and a
// run refuses eth0 (the lab's seed unit readdresses it) and, eth0 let go, changes nothing.
import test from 'ava';
import { run } from '../../src/lab/run.js';
import { labPing } from '../helpers/lab-ping.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, BOND_SNAPSHOT, esc } from './bond-lab.js';
import { assertLacpPartner, lacpLab, wireCutDrill } from './lacp-lab.js';
import { BOND_LINES, idleAfterReboot, rebootKeepsBond, rollbackDrill } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const GW6 = 'fd22:7::1';
const HOST6 = 'fd22:7::11';

test.serial('LACP bond uplink on a VM (far end: a second VM bonding the wires): dual-stack, rollback, move, idempotent, --check, failover, reboot', async (t) => {
  const started = Date.now();
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  let at = Date.now();
  const lab = await lacpLab(t, LAB);
  const { l, swMac } = lab;
  step('switch and host bonded', at);
  const bondBefore = await l.sh(BOND_LINES);
  // Dual-stack: the lab's namespace is the IPv6 gateway, reached through the switch's bridge.
  await run('ip', ['-n', l.state.netns, '-6', 'addr', 'add', `${GW6}/64`, 'dev', l.state.bridge, 'nodad']);
  await l.sh(`ip -6 addr add ${HOST6}/64 dev bond0 nodad && ip -6 route replace default via ${GW6} dev bond0 && (ping -6 -c3 -W2 ${GW6} >/dev/null || true)`);
  const before = await l.sh(BOND_SNAPSHOT);
  t.regex(before, new RegExp(`bond0 inet ${esc(l.ip)}/24[\\s\\S]*bond0 inet6 ${esc(HOST6)}/64`));

  // Injected failure: a gateway on the subnet that nothing answers. The host's check fails, it rolls back.
  const wrong = l.gw.replace(/\.\d+$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_gateway: wrong }, target: wrong, uplink: 'bond0', snapshot: BOND_SNAPSHOT, before, what: 'the LACP bond, both families\' addresses and routes' });
  t.true((await l.sh('cat /proc/net/bonding/bond0')).includes(swMac), 'still aggregated with the switch after the rollback');

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move);
  const bond = await l.sh('cat /proc/net/bonding/bond0');
  t.regex(bond, /Bonding Mode: IEEE 802\.3ad Dynamic link aggregation\nTransmit Hash Policy: layer3\+4/);
  t.regex(bond, /LACP rate: fast/);
  t.true(bond.includes(swMac), `the LACP partner is still the switch after the move:\n${bond}`);
  t.regex(await l.sh('ip -o -6 addr show dev br-ex scope global'), new RegExp(`inet6 ${esc(HOST6)}/64`), 'the IPv6 address on br-ex');
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(l.gw)} dev br-ex (proto static )?metric 48`));
  t.regex(await l.sh('ip -6 route show default'), new RegExp(`default via ${esc(GW6)} dev br-ex (proto static )?metric 48`));
  let p6 = await labPing(l.state, HOST6, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && p6.code !== 0; i++) p6 = await labPing(l.state, HOST6, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(p6.code, 0, `IPv6 reaches the host on br-ex:\n${p6.stdout}`);
  const moved = await l.sh(BOND_SNAPSHOT);

  at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, moved);
  step('second run and --check', at);

  await wireCutDrill(t, lab, LAB);

  // A power cycle of the host (the switch stays up): the boot oneshot makes the LACP bond again, which
  // aggregates with the switch again, and puts both families back on br-ex.
  await rebootKeepsBond(t, l, LAB, 'ip -o -4 addr show dev br-ex', new RegExp(`inet ${esc(l.ip)}/24`), bondBefore);
  await assertLacpPartner(t, lab, ' after the reboot');
  const both = new RegExp(`inet ${esc(l.ip)}/24[\\s\\S]*inet6 ${esc(HOST6)}/64[\\s\\S]*default via ${esc(GW6)} dev br-ex (proto static )?metric 48`);
  t.regex(await l.sh('ip -o addr show dev br-ex scope global; ip -6 route show default'), both, 'both families back on br-ex');
  at = Date.now();
  await idleAfterReboot(t, l, { probe: 'ip -o addr show dev br-ex scope global; ip -6 route show default', want: both });
  step('runs after the reboot (refused beside eth0, then idle)', at);
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
