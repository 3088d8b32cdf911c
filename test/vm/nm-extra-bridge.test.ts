// configure_ovs (mode uplink) with the nm backend and the extra bridge, for real: a lab host whose NM has its
// OVS plugin (`lab up --nm-ovs`, netdev datapath), eth0 static (held by NM externally) and a second NIC eth1
// (a veth whose peer sits in a network namespace of its own inside the host, 192.168.77.2) configured by an NM
// profile with 192.168.77.1/24, named in /etc/ovnk/extra_bridge. A withheld confirmation puts both NICs back
// exactly; the move gives br-ex (phys0) and br-ex1 (phys1, metric 49) their five profiles each, the peer's
// pings reach the host through br-ex1; a second run and --check change nothing; after `lab reboot` the boot
// oneshot makes both bridges' profiles again (eth1 made at boot by a unit before NM), the peer's pings come in
// on br-ex1 and a run changes nothing; once extra_bridge is gone a
// run removes br-ex1's profiles and bridge and NM re-activates eth1's own profile. In the VM tier (npm run test:vm).
import test from 'ava';
import { shellJoin } from '../../src/transports/quote.js';
import { sleep } from '../../src/lab/run.js';
import { rebootLabHost } from '../helpers/lab-host.js';
import { ACTIVE_PROFILES, brExProfiles, lineSet, NM_DEVICES } from '../helpers/nm-backend.js';
import { failure, snapshot, uplinkLab } from '../roles-lab/uplink-helpers.js';
import { vmLabName } from './lab-name.js';

const NM = { configure_ovs_backend: 'nm' };
// eth1p is the far end: unmanaged, in its own namespace p1. eth1 gets an NM profile, as a RHEL NIC has. A unit
// makes the pair at every boot before NM starts, as a machine's NIC is there at boot (the reboot step).
const ETH1 = ['ip link add eth1 type veth peer name eth1p', 'ethtool -K eth1 tx off >/dev/null', 'ethtool -K eth1p tx off >/dev/null',
  'ip netns add p1', 'ip link set eth1p netns p1', 'ip -n p1 addr add 192.168.77.2/24 dev eth1p', 'ip -n p1 link set eth1p up'].join(' && ');
const UNIT = ['[Unit]', 'Description=lab: the NIC eth1 and its far end', 'DefaultDependencies=no', 'After=local-fs.target', 'Before=NetworkManager.service',
  '[Service]', 'Type=oneshot', 'RemainAfterExit=yes', `ExecStart=/bin/sh -c ${shellJoin([ETH1])}`, '[Install]', 'WantedBy=multi-user.target'];
const SETUP = [
  "printf '[keyfile]\\nunmanaged-devices+=interface-name:eth1p\\n' >/etc/NetworkManager/conf.d/90-lab-eth1.conf", 'nmcli general reload conf',
  `printf '%s\\n' ${shellJoin(UNIT)} >/etc/systemd/system/lab-eth1.service`, 'systemctl daemon-reload', 'systemctl enable --now --quiet lab-eth1.service',
  shellJoin(['nmcli', 'connection', 'add', 'type', 'ethernet', 'con-name', 'extra1', 'ifname', 'eth1', 'ipv4.method', 'manual', 'ipv4.addresses', '192.168.77.1/24',
    // A fixed metric: with the default (-1) NM picks the next free one per activation (101 before, 103 after a rollback's re-activation).
    'ipv4.route-metric', '101', 'ipv6.method', 'ignore']),
  'nmcli --wait 30 connection up extra1 >/dev/null', 'mkdir -p /etc/ovnk', 'echo eth1 >/etc/ovnk/extra_bridge',
].join(' && ');
const PEER_PING = 'ip netns exec p1 ping -n -c5 -i0.2 -W2 192.168.77.1';

test('nm backend, extra bridge br-ex1 on a second NIC: rollback exactly, move, traffic, idempotent, reboot, removal', async (t) => {
  const l = await uplinkLab(t, vmLabName(import.meta.url), 1_500_000, { nmOvs: true });
  t.timeout(400_000, 'vmnmx: the test\'s own deadline once the lab is up');
  await l.host.sh(SETUP);
  t.regex(await l.host.sh('nmcli -g GENERAL.CONNECTION device show eth1; ip -o -4 addr show dev eth1'), /^extra1\n.*inet 192\.168\.77\.1\/24/);
  t.regex(await l.host.sh(PEER_PING), / 0% packet loss/, 'the peer reaches eth1 before the move');
  const before = await snapshot(l);
  const nmBefore = await l.host.sh(NM_DEVICES);

  const drill = await l.role({ ...NM, configure_ovs_confirm: false, configure_ovs_confirm_timeout: 15 });
  t.regex(failure(drill), /rolled back after [\d.]+ s: no confirmation from hostwire within 15 s/);
  t.log(`withheld confirmation (both bridges): ${/rolled back after ([\d.]+) s/.exec(failure(drill))?.[1]} s on the host`);
  t.is(await snapshot(l), before, 'both NICs exactly as before');
  t.is(await l.host.sh(NM_DEVICES), nmBefore, 'NM holds eth0 externally and eth1 with extra1 again');
  t.notRegex(await l.host.sh('nmcli -t -f NAME connection show'), /ovs-/);

  const started = Date.now();
  const moved = await l.role(NM);
  t.log(`move of eth0 and eth1 with the nm backend: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(moved.failed, []);
  t.deepEqual(lineSet(await l.host.sh(ACTIVE_PROFILES)), lineSet(brExProfiles('eth0') + brExProfiles('eth1', 'br-ex1', 1)));
  t.regex(await l.host.sh('ovs-vsctl list-ports br-ex1; ip -o -4 addr show dev br-ex1'), /^eth1\n.*inet 192\.168\.77\.1\/24/);
  t.regex(await l.host.sh('ip route show dev br-ex1'), /^192\.168\.77\.0\/24 proto kernel scope link src 192\.168\.77\.1 metric 49 *$/m);
  t.is(await l.host.sh('cat /sys/class/net/br-ex1/address'), await l.host.sh('cat /sys/class/net/eth1/address'));
  t.is((await l.host.sh('ip -o addr show dev eth1 scope global')).trim(), '');
  const rx = async () => Number((await l.host.sh('cat /sys/class/net/br-ex1/statistics/rx_packets')).trim());
  const rx0 = await rx();
  t.regex(await l.host.sh(PEER_PING), / 0% packet loss/, 'the peer reaches the host through br-ex1');
  t.true((await rx()) - rx0 >= 5, 'the pings came in on br-ex1');
  t.deepEqual((await l.role(NM)).changed, [], 'second run');
  const checked = await l.role(NM, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');

  // The profiles live in /run: at boot the oneshot (after NM) makes and activates both bridges' profiles again.
  const movedState = await snapshot(l);
  const profiles = lineSet(await l.host.sh(ACTIVE_PROFILES));
  t.log(`reboot: SSH on br-ex ${(await rebootLabHost(l.host)).toFixed(1)} s after the power cycle began`);
  let after: string[] = [];
  for (let i = 0; i < 30 && after.join('\n') !== profiles.join('\n'); i++) { if (i) await sleep(1000); after = lineSet(await l.host.sh(ACTIVE_PROFILES)); }
  t.deepEqual(after, profiles, 'the same ten profiles active after the reboot');
  t.is((await l.host.sh('systemctl is-active hostwire-configure-ovs.service')).trim(), 'active');
  t.is(await snapshot(l), movedState, 'addresses (192.168.77.1 on br-ex1), routes (metric 49), links, OVS, nft and files as before the reboot');
  t.regex(await l.host.sh(PEER_PING), / 0% packet loss/, 'the peer reaches the host through br-ex1 after the reboot');
  t.deepEqual((await l.role(NM)).changed, [], 'a run after the reboot');

  // extra_bridge gone: br-ex1 is removed and eth1 gets its own profile back.
  await l.host.sh('rm /etc/ovnk/extra_bridge');
  const removed = await l.role(NM);
  t.deepEqual(removed.failed, []);
  t.true(removed.changed.length > 0);
  t.is((await l.host.sh('ovs-vsctl list-br')).trim(), 'br-ex');
  t.deepEqual(lineSet(await l.host.sh(ACTIVE_PROFILES)), lineSet(`${brExProfiles('eth0')}extra1:802-3-ethernet:eth1\n`));
  t.regex(await l.host.sh('ip -o -4 addr show dev eth1'), /inet 192\.168\.77\.1\/24/);
  t.notRegex(await l.host.sh('nft list tables netdev; ls /etc/hostwire/configure-ovs /var/lib/hostwire/configure-ovs'), /eth1|br-ex1/);
  t.regex(await l.host.sh(PEER_PING), / 0% packet loss/, 'the peer reaches eth1 again');
  t.deepEqual((await l.role(NM)).changed, [], 'a run after the removal changes nothing');
});
