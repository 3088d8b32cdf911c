// VM tier (npm run test:vm), issue 20: an 802.3ad (LACP) bond uplink moves onto br-ex. Two VM hosts: the
// host under test has bond0 (802.3ad, lacp_rate fast, xmit_hash_policy layer3+4) over eth1+eth2, wired
// point-to-point to the second VM, which plays the switch: its own LACP bond over the two wires in a Linux
// bridge with its eth3 on the lab bridge, so the lab (and the controller) reach the host's address through
// the aggregate. After the move: SSH on the same address, bond0 one port of br-ex on the kernel datapath,
// the LACP partner still aggregated, a second run and --check change nothing, a cut port fails over. The
// bond is dual-stack (static IPv4 and IPv6, a default route of each; the lab's namespace is the IPv6
// gateway): both families move, and an injected failure (a gateway nothing answers) first rolls back within
// the window to exactly the LACP bond it had, still aggregated with its partner.
import test from 'ava';
import { labSetLink } from '../../src/lab/lab-link.js';
import { run } from '../../src/lab/run.js';
import { labPing } from '../helpers/lab-ping.js';
import { vmSh } from './vm-ssh.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, BOND_SNAPSHOT, bondTheHost, esc, longestGap, vmUplinkLab } from './bond-lab.js';
import { rollbackDrill } from './vm-drills.js';

const LAB = 'vmx23lacp';
const GW6 = 'fd22:7::1';
const HOST6 = 'fd22:7::11';

test.serial('LACP bond uplink on a VM (far end: a second VM bonding the wires): dual-stack, rollback, move, idempotent, --check, failover', async (t) => {
  t.timeout(29 * 60_000, 'the scenario\'s own deadline (below the VM tier\'s 30 min)');
  const l = await vmUplinkLab(t, LAB, 4, { hosts: 2, vms: 2,
    wires: [[{ host: 1, nic: 1 }, { host: 2, nic: 1 }], [{ host: 1, nic: 2 }, { host: 2, nic: 2 }]] });
  const sw = l.state.hosts[1]!;
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  const lacp = ['mode', '802.3ad', 'lacp_rate', 'fast', 'miimon', '100', 'xmit_hash_policy', 'layer3+4'];
  let at = Date.now();
  // The switch: LACP over both wires, bridged to the lab through eth3.
  await vmSh(l.state, sw, ['for d in eth1 eth2 eth3; do nmcli device set "$d" managed no 2>/dev/null || true; done',
    `ip link add bond0 type bond ${lacp.join(' ')}`, 'ip link set eth1 down', 'ip link set eth2 down',
    'ip link set eth1 master bond0', 'ip link set eth2 master bond0', 'ip link add sw0 type bridge',
    'ip link set bond0 master sw0', 'ip link set eth3 master sw0', 'ip link set eth3 up', 'ip link set bond0 up', 'ip link set sw0 up'].join(' && '));
  await bondTheHost(l, lacp);
  step('switch and host bonded', at);
  const swMac = (await vmSh(l.state, sw, 'cat /sys/class/net/bond0/address')).trim();
  let partner = '';
  for (let i = 0; i < 30 && !partner.includes(swMac); i++) {
    partner = await l.sh('grep -i "Partner Mac Address" /proc/net/bonding/bond0 || true');
    if (!partner.includes(swMac)) await new Promise((r) => setTimeout(r, 2000));
  }
  t.true(partner.includes(swMac), `no LACP partner:\n${await l.sh('cat /proc/net/bonding/bond0')}`);
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

  // One wire cut at both ends (a cable pulled: both ports lose carrier): the aggregate carries on over the
  // other. Cutting the host's end alone leaves the switch sending on it until LACP's timeout (~3 s).
  const count = 300;
  const pinging = labPing(l.state, l.ip, ['-i', '0.05', '-c', String(count), '-W', '1'], 120_000);
  await new Promise((r) => setTimeout(r, 3000));
  await Promise.all([labSetLink(l.host.name, 'eth1', 'down', { name: LAB }), labSetLink(sw.name, 'eth1', 'down', { name: LAB })]);
  const ping = await pinging;
  const received = Number(/(\d+) received/.exec(ping.stdout)?.[1] ?? 0);
  const gap = longestGap(ping.stdout, 0.05, count);
  t.log(`eth1 wire cut: ${count - received} of ${count} pings lost, longest gap ${gap.toFixed(2)} s`);
  t.true(gap < 10, `gap ${gap} s`);
  t.true(received > count / 2, `the host kept answering over eth2 (${received} of ${count})`);
  t.regex(await l.sh('cat /proc/net/bonding/bond0'), /Slave Interface: eth1\nMII Status: down/);
  t.regex(await l.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${esc(l.ip)}/24`), 'SSH on the same address after the cut');
  await Promise.all([labSetLink(l.host.name, 'eth1', 'up', { name: LAB }), labSetLink(sw.name, 'eth1', 'up', { name: LAB })]);
  let up = '';
  for (let i = 0; i < 20 && !/Slave Interface: eth1\nMII Status: up/.test(up); i++) {
    await new Promise((r) => setTimeout(r, 1500));
    up = await l.sh('cat /proc/net/bonding/bond0');
  }
  t.regex(up, /Slave Interface: eth1\nMII Status: up/, 'eth1 back in the aggregate once the wire is');
});
