// VM tier (npm run test:vm), issue 20: a DHCP node address on VLAN 100 over an active-backup bond, made as
// an installer on a NetworkManager host makes it (bond, port and VLAN profiles; NM's DHCP client on the VLAN),
// moves onto br-ex with the kernel datapath. The far end (vlan-lab.ts, a second VM) serves exactly one
// address on the VLAN with dnsmasq, so the same address again means the same client (its MAC-based client
// id). An injected failure (a check target nothing answers) rolls back: the lease is back on the VLAN and NM
// holds the bond, its ports and the VLAN again as before. After the move the lease and its default route are on br-ex (systemd-networkd's DHCP client there,
// as configure-ovs moves the DHCP client onto br-ex), SSH answers on the same address, the bond's options and
// the VLAN are kept, and a second run and --check change nothing. Cutting the active port's cable fails the
// bond over under br-ex (the gap is logged), and after a power cycle the boot oneshot brings the same lease
// back on br-ex (networkd's DHCP client there again, its /run file made anew).
import test from 'ava';
import { waitForLease } from './bond-dhcp.js';
import { activePort, assertMovedOntoBrEx, assertSecondRunIdle, esc, failure } from './bond-lab.js';
import { failoverDrill, rebootUntil } from './vm-drills.js';
import { VLAN, VLAN_SNAPSHOT, vlanLab, vlanTheHost } from './vlan-lab.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const BOND_LINES = 'grep -E "^(Bonding Mode|Primary Slave|MII Polling|Up Delay|Down Delay|Slave Interface)" /proc/net/bonding/bond0';

test.serial('DHCP on a VLAN on an active-backup bond (NetworkManager profiles): rollback, the move keeps the lease and its route, idempotent, --check, failover, reboot', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  const v = await vlanLab(t, LAB, { dhcp: true });
  let at = Date.now();
  const l = await vlanTheHost(v, { dhcp: true });
  step('host on bond0.100 (NM, DHCP)', at);
  const lease = new RegExp(`inet ${esc(VLAN.host4)}/24 .*dynamic`);
  t.regex(await l.sh(`ip -o -4 addr show dev ${VLAN.dev}`), lease, 'the VLAN holds its lease');
  t.regex(await l.sh(`nmcli -t -f GENERAL.CONNECTION device show ${VLAN.dev}`), /bond0\.100/, 'through NetworkManager');
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev ${esc(VLAN.dev)} proto dhcp`));
  const mac = (await l.sh(`cat /sys/class/net/${VLAN.dev}/address`)).trim();
  const bondBefore = await l.sh(BOND_LINES);
  t.regex(bondBefore, /active-backup[\s\S]*Primary Slave: eth1[\s\S]*MII Polling Interval \(ms\): 100\nUp Delay \(ms\): 200/);

  // Injected failure: a check target nothing answers. The rollback gives the VLAN its lease back through NM.
  const nmDevices = 'nmcli -t -f DEVICE,STATE device | grep -E "^(bond0|bond0\\.100|eth1|eth2):" | LC_ALL=C sort';
  const nmBefore = await l.sh(nmDevices);
  for (const d of ['bond0', 'bond0\\.100', 'eth1', 'eth2']) t.regex(nmBefore, new RegExp(`^${d}:connected$`, 'm'), nmBefore);
  at = Date.now();
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  const bad = await l.role({ configure_ovs_check_targets: [dead] });
  step('injected failure run', at);
  t.is(bad.summary.exitCode, 2, failure(bad));
  t.regex(failure(bad), new RegExp(`rolled back after [\\d.]+ s: connectivity check failed: ${esc(dead)} does not answer through br-ex`));
  t.regex(await waitForLease(l, VLAN.dev, lease), lease, 'the rollback gives the VLAN its lease back');
  step('lease back after the injected failure', at);
  t.is(await l.sh(nmDevices), nmBefore, 'NetworkManager holds the bond, its ports and the VLAN again as before');
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev ${esc(VLAN.dev)} proto dhcp`));
  t.is((await l.sh(`cat /sys/class/net/${VLAN.dev}/address`)).trim(), mac);
  t.is(await l.sh(BOND_LINES), bondBefore, 'bond options and ports as before');

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move, VLAN.dev);
  t.regex(await l.sh('ip -o -4 addr show dev br-ex'), lease, 'the same lease, now on br-ex');
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev br-ex proto dhcp .*metric 48`));
  t.is((await l.sh(`ip -o addr show dev ${VLAN.dev} scope global`)).trim(), '', 'the VLAN device holds no address');
  t.regex(await l.sh('networkctl status br-ex --no-pager 2>&1 | grep -i "state\\|address" ; cat /run/systemd/network/10-hostwire-br-ex.network'), /DHCP=ipv4/);
  t.regex(await v.peerSh('cat /run/v21-dhcp.leases'), new RegExp(`${esc(mac)} ${esc(VLAN.host4)} `), 'the peer leased the one address to the VLAN\'s MAC');
  t.regex(await l.sh(`ip -d -o link show dev ${VLAN.dev}`), new RegExp(`link/ether ${esc(mac)} .*vlan protocol 802\\.1Q id ${VLAN.id} `));
  t.is(await l.sh(BOND_LINES), bondBefore, 'bond options and ports kept');
  const moved = await l.sh(VLAN_SNAPSHOT);

  at = Date.now();
  await assertSecondRunIdle(t, l, VLAN_SNAPSHOT, moved);
  step('second run and --check', at);

  // Failover: cut the active port's cable while the lab pings the leased address through the peer.
  t.is(await activePort(l), 'eth1');
  await failoverDrill(t, l, LAB, 'eth1', 'eth2');

  // A reboot: the boot oneshot makes bond0 and bond0.100 again, re-attaches the VLAN and starts the DHCP
  // client on br-ex, which gets the same (only) address again.
  await rebootUntil(t, l, LAB, 'ip -o -4 addr show dev br-ex', lease);
  t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev br-ex proto dhcp .*metric 48`));
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), VLAN.dev);
  t.regex(await l.sh('ovs-dpctl show'), new RegExp(`system@ovs-system[\\s\\S]*port \\d+: ${esc(VLAN.dev)}(\\s|$)`, 'm'));
  t.regex(await l.sh(`ip -d -o link show dev ${VLAN.dev}`), new RegExp(`link/ether ${esc(mac)} .*vlan protocol 802\\.1Q id ${VLAN.id} `), 'the VLAN made again with its MAC');
  t.regex(await l.sh('ip -o link show dev br-ex'), new RegExp(`link/ether ${esc(mac)} `), 'br-ex has the VLAN\'s MAC');
  t.is((await l.sh(`ip -o addr show dev ${VLAN.dev} scope global`)).trim(), '', 'the VLAN device holds no address');
  t.is(await l.sh(BOND_LINES), bondBefore, 'bond made again with its options and ports');
  t.notRegex(await l.sh('nmcli -t -f DEVICE,STATE device | grep -E "^(bond0|bond0\\.100|eth1|eth2|br-ex):"; true'), /:connected$/m, 'NetworkManager leaves the moved devices alone after the boot');
  t.regex(await v.peerSh('cat /run/v21-dhcp.leases'), new RegExp(`${esc(mac)} ${esc(VLAN.host4)} `), 'the lease is the VLAN MAC\'s still');
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
