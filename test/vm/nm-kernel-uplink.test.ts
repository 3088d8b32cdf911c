// VM tier (npm run test:vm), issue 20: configure_ovs with the nm backend on the KERNEL datapath. One VM host
// of `lab up --vms 1 --nm-ovs` (its own kernel with the openvswitch module, NM rebuilt with its OVS plugin),
// eth0 static, held by NM "externally". A withheld confirmation puts the host back exactly (addresses,
// routes, links, OVS, nft, files; NM holds eth0 externally again, no ovs-* profile left); the move gives
// MCO's five profiles on `system@ovs-system` (datapath auto) with the cloned MAC on ovs-if-br-ex (no
// hwaddr of hostwire's, no nft drop: those are the netdev datapath's), SSH on the same address, the lab's
// pings through eth0's OVS port up to br-ex; a second run and --check change nothing; after a power cycle
// the boot oneshot makes and activates the same profiles.
import test from 'ava';
import { labPing } from '../helpers/lab-ping.js';
import { ACTIVE_PROFILES, brExProfiles, NM_DEVICES } from '../helpers/nm-backend.js';
import { SNAPSHOT } from '../roles-lab/uplink-helpers.js';
import { assertSecondRunIdle, esc, failure, vmUplinkLab } from './bond-lab.js';
import { rebootUntil } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const NM = { configure_ovs_backend: 'nm' };

test.serial('nm backend on the kernel datapath (VM): rollback exactly, move into NM profiles, SSH, traffic, idempotent, reboot', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  const l = await vmUplinkLab(t, LAB, 1, { nmOvs: true });
  t.regex(await l.sh('journalctl -u NetworkManager --no-pager -o cat'), /Loaded device plugin: NMOvsFactory/);
  const mac = (await l.sh('cat /sys/class/net/eth0/address')).trim();
  const before = await l.sh(SNAPSHOT);
  const nmBefore = await l.sh(NM_DEVICES);
  t.regex(nmBefore, /^eth0:connected \(externally\):eth0$/m);

  let at = Date.now();
  const drill = await l.role({ ...NM, configure_ovs_confirm: false, configure_ovs_confirm_timeout: 90 });
  step('withheld confirmation run', at);
  t.regex(failure(drill), /rolled back after [\d.]+ s: no confirmation from hostwire within 90 s/);
  t.log(`withheld confirmation: rolled back ${/rolled back after ([\d.]+) s/.exec(failure(drill))?.[1]} s after the transaction started`);
  t.is(await l.sh(SNAPSHOT), before, 'the host is exactly as before');
  t.is(await l.sh(NM_DEVICES), nmBefore, 'NM holds eth0 as before');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /ovs-/);

  at = Date.now();
  const moved = await l.role(NM);
  step('move', at);
  t.is(moved.summary.exitCode, 0, failure(moved));
  t.true(moved.changed.length > 0);
  t.is((await l.sh(ACTIVE_PROFILES)).trim(), brExProfiles('eth0').trim());
  t.is((await l.sh('ovs-vsctl get bridge br-ex datapath_type')).trim(), 'system', 'datapath auto picks the kernel datapath');
  t.regex(await l.sh('ovs-dpctl show'), /system@ovs-system[\s\S]*port \d+: eth0(\s|$)/m);
  t.regex(await l.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${esc(l.ip)}/24`), 'same address on br-ex (SSH on it)');
  t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(l.gw)} dev br-ex proto static metric 48 *$`, 'm'));
  t.is((await l.sh('ip -o -4 addr show dev eth0')).trim(), '');
  t.is((await l.sh('cat /sys/class/net/br-ex/address')).trim(), mac, 'br-ex has eth0\'s MAC');
  t.is((await l.sh('nmcli -g 802-3-ethernet.cloned-mac-address connection show ovs-if-br-ex')).trim().replaceAll('\\', '').toLowerCase(), mac, 'MCO\'s cloned MAC on ovs-if-br-ex');
  // NM sets the bridge's other_config:hwaddr itself here (seen: {hwaddr="52:54:00:A5:CF:0B"}, upper case; hostwire's netdev workaround writes lower case).
  t.regex(await l.sh('ovs-vsctl get bridge br-ex other_config'), new RegExp(`^\\{(hwaddr="${mac.toUpperCase()}")?\\}$`), 'no hostwire hwaddr on the kernel datapath');
  t.notRegex(await l.sh('nft list tables netdev; true'), /hostwire_eth0/, 'no kernel ingress drop on the kernel datapath');

  // Traffic through br-ex: the lab's pings enter eth0 as an OVS port and reach the host on br-ex.
  const counters = 'ovs-vsctl get interface eth0 statistics:rx_packets; cat /sys/class/net/br-ex/statistics/rx_packets';
  const [eth0Rx, brRx] = (await l.sh(counters)).trim().split('\n').map(Number);
  const ping = await labPing(l.state, l.ip, ['-c20', '-i0.2', '-W3']);
  t.regex(ping.stdout, /20 packets transmitted, 20 received/);
  const [eth0Rx2, brRx2] = (await l.sh(counters)).trim().split('\n').map(Number);
  t.true(eth0Rx2! - eth0Rx! >= 20 && brRx2! - brRx! >= 20, `eth0 port rx ${eth0Rx}->${eth0Rx2}, br-ex rx ${brRx}->${brRx2}`);
  t.log(`20 pings through br-ex: eth0 OVS port rx +${eth0Rx2! - eth0Rx!}, br-ex rx +${brRx2! - brRx!}`);

  at = Date.now();
  const movedState = await l.sh(SNAPSHOT);
  const runNm = { ...l, role: (vars: Record<string, unknown> = {}, check = false) => l.role({ ...NM, ...vars }, check) };
  await assertSecondRunIdle(t, runNm, SNAPSHOT, movedState);
  step('second run and --check', at);

  const profiles = await l.sh(ACTIVE_PROFILES);
  await rebootUntil(t, l, LAB, `${ACTIVE_PROFILES}; ip -o -4 addr show dev br-ex`, new RegExp(`ovs-if-br-ex:ovs-interface:br-ex[\\s\\S]*inet ${esc(l.ip)}/24`));
  let after = '';
  for (let i = 0; i < 20 && after !== profiles; i++) {
    after = await l.sh(ACTIVE_PROFILES);
    if (after !== profiles) await new Promise((r) => setTimeout(r, 3000));
  }
  t.is(after, profiles, 'the same NM profiles active after the reboot');
  t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(l.gw)} dev br-ex proto static metric 48 *$`, 'm'));
  t.is((await l.sh('ip -o -4 addr show dev eth0')).trim(), '', 'eth0 holds no address after the reboot');
  t.regex(await l.sh('ovs-dpctl show'), /system@ovs-system[\s\S]*port \d+: eth0(\s|$)/m);
  at = Date.now();
  const again = await runNm.role();
  step('run after the reboot', at);
  t.deepEqual([again.changed, again.failed], [[], []], 'a run after the reboot changes nothing');
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
