// VM tier (npm run test:vm), issue 20: an 802.3ad (LACP) bond uplink moves onto br-ex. Two VM hosts: the
// host under test has bond0 (802.3ad, lacp_rate fast, xmit_hash_policy layer3+4) over eth1+eth2, wired
// point-to-point to the second VM, which plays the switch: its own LACP bond over the two wires in a Linux
// bridge with its eth3 on the lab bridge, so the lab (and the controller) reach the host's address through
// the aggregate. After the move: SSH on the same address, bond0 one port of br-ex on the kernel datapath,
// the LACP partner still aggregated, a second run and --check change nothing, a cut port fails over.
import test from 'ava';
import { labSetLink } from '../../src/lab/lab-link.js';
import { labPing } from '../helpers/lab-ping.js';
import { vmSh } from './vm-ssh.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, BOND_SNAPSHOT, bondTheHost, esc, longestGap, vmUplinkLab } from './bond-lab.js';

const LAB = 'vm20lacp';

test.serial('LACP bond uplink on a VM (far end: a second VM bonding the wires): move, idempotent, --check, failover', async (t) => {
  t.timeout(28 * 60_000, 'the scenario\'s own deadline (below the VM tier\'s 30 min)');
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

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move);
  const bond = await l.sh('cat /proc/net/bonding/bond0');
  t.regex(bond, /Bonding Mode: IEEE 802\.3ad Dynamic link aggregation\nTransmit Hash Policy: layer3\+4/);
  t.regex(bond, /LACP rate: fast/);
  t.true(bond.includes(swMac), `the LACP partner is still the switch after the move:\n${bond}`);
  const moved = await l.sh(BOND_SNAPSHOT);

  at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, moved);
  step('second run and --check', at);

  // One wire cut: the aggregate carries on over the other.
  const count = 300;
  const pinging = labPing(l.state, l.ip, ['-i', '0.05', '-c', String(count), '-W', '1'], 120_000);
  await new Promise((r) => setTimeout(r, 3000));
  await labSetLink(l.host.name, 'eth1', 'down', { name: LAB });
  const ping = await pinging;
  const received = Number(/(\d+) received/.exec(ping.stdout)?.[1] ?? 0);
  t.log(`eth1 cut: ${count - received} of ${count} pings lost, longest gap ${longestGap(ping.stdout, 0.05, count).toFixed(2)} s`);
  t.true(received > count / 2, `the host kept answering over eth2 (${received} of ${count})`);
  t.regex(await l.sh('cat /proc/net/bonding/bond0'), /Slave Interface: eth1\nMII Status: down/);
  t.regex(await l.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${esc(l.ip)}/24`), 'SSH on the same address after the cut');
  await labSetLink(l.host.name, 'eth1', 'up', { name: LAB });
});
