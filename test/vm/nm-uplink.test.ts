// configure_ovs (mode uplink) with the nm backend, for real: a lab host whose NetworkManager has its OVS
// device plugin (`lab up --nm-ovs`: Debian's NM rebuilt with ovs, src/lab/nm-ovs.ts) and a static eth0 NM
// holds "externally". A withheld confirmation puts the host back exactly (addresses, routes, links, OVS,
// nft, files; NM holds eth0 externally again, no ovs-* profile left, no DHCP started on eth0); the move
// gives NM's MCO profile set (br-ex, ovs-port-br-ex, ovs-port-phys0, ovs-if-phys0, ovs-if-br-ex) activated
// on the netdev datapath with eth0's MAC, address and default route (metric 48); a second run and --check
// change nothing; after a reboot the boot oneshot makes and activates the same profiles. In the VM tier (npm run test:vm): the first build of NM with OVS takes ~6 min per machine.
import test from 'ava';
import { labReboot } from '../../src/lab/index.js';
import { ACTIVE_PROFILES as activeProfiles, brExProfiles, NM_DEVICES } from '../helpers/nm-backend.js';
import { snapshot, uplinkLab } from '../roles-lab/uplink-helpers.js';
import { vmLabName } from './lab-name.js';

test('nm backend, static uplink: rollback exactly, move into NM ovs-* profiles, idempotent', async (t) => {
  const l = await uplinkLab(t, vmLabName(import.meta.url), 1_500_000, { nmOvs: true });
  t.timeout(300_000, 'nmost: the test\'s own deadline once the lab is up');
  t.regex(await l.host.sh('journalctl -u NetworkManager --no-pager -o cat'), /Loaded device plugin: NMOvsFactory/);
  const nm = { configure_ovs_backend: 'nm' };
  const before = await snapshot(l);
  const nmBefore = await l.host.sh(NM_DEVICES);
  t.regex(nmBefore, /^eth0:connected \(externally\):eth0$/m);

  const drill = await l.role({ ...nm, configure_ovs_confirm: false, configure_ovs_confirm_timeout: 10 });
  t.regex(drill.failed.join('\n'), /rolled back after [\d.]+ s: no confirmation from hostwire within 10 s/);
  t.log(`withheld confirmation: ${/rolled back after ([\d.]+) s/.exec(drill.failed.join('\n'))?.[1]} s on the host`);
  t.is(await snapshot(l), before, 'the host is exactly as before');
  t.is(await l.host.sh(NM_DEVICES), nmBefore, 'NM holds eth0 as before');
  t.notRegex(await l.host.sh('nmcli -t -f NAME connection show'), /ovs-/);
  // NM's auto-made DHCP profile would take eth0 and drop its address when its DHCP times out (45 s).
  await new Promise((r) => setTimeout(r, 5000));
  t.regex(await l.host.sh('nmcli -t -f DEVICE,STATE device'), /^eth0:connected \(externally\)$/m, 'no DHCP started on eth0');

  const started = Date.now();
  const moved = await l.role(nm);
  t.log(`static move with the nm backend: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(moved.failed, []);
  t.true(moved.changed.length > 0);
  t.is(await l.host.sh(activeProfiles), brExProfiles('eth0'));
  t.regex(await l.host.sh('ovs-vsctl get bridge br-ex datapath_type; ovs-vsctl list-ports br-ex'), /^netdev\neth0\n$/);
  t.regex(await l.host.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${l.ip.replaceAll('.', '\\.')}/24`));
  t.regex(await l.host.sh('ip route show default'), new RegExp(`^default via ${l.gw.replaceAll('.', '\\.')} dev br-ex proto static metric 48 *$`, 'm'));
  t.is((await l.host.sh('ip -o -4 addr show dev eth0')).trim(), '');
  t.is(await l.host.sh('cat /sys/class/net/br-ex/address'), await l.host.sh('cat /sys/class/net/eth0/address'));
  t.regex(await l.host.sh('nft list tables netdev'), /hostwire_eth0/);
  t.deepEqual((await l.role(nm)).changed, [], 'second run');
  const checked = await l.role(nm, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');

  // The profiles live in /run: at boot the oneshot (after NM, which starts after OVS) makes and activates them again.
  const profiles = await l.host.sh(activeProfiles);
  await l.host.transport.close();
  const rebooted = Date.now();
  await labReboot('nmost-1', { name: 'nmost', timeoutMs: 120_000 });
  await l.host.transport.connect();
  t.log(`reboot: SSH on br-ex ${((Date.now() - rebooted) / 1000).toFixed(1)} s after the power cycle began`);
  t.is((await l.host.sh('systemctl is-active hostwire-configure-ovs.service')).trim(), 'active');
  t.is(await l.host.sh(activeProfiles), profiles, 'the same NM profiles active after the reboot');
  t.regex(await l.host.sh('ip route show default'), new RegExp(`^default via ${l.gw.replaceAll('.', '\\.')} dev br-ex proto static metric 48 *$`, 'm'));
  t.deepEqual((await l.role(nm)).changed, [], 'a run after the reboot');
});
