// VM tier (npm run test:vm), issue 20: configure_ovs (mode uplink, ovs backend) on a DHCP uplink as Debian's
// installer and cloud images write it - `allow-hotplug eth0` / `iface eth0 inet dhcp` in /etc/network/interfaces -
// where udev's hotplug event at boot starts ifup@eth0.service, whose ISC dhclient takes the lease (networking.service's
// `ifup -a` only brings up `auto` interfaces). nspawn hosts get no hotplug events (the `auto eth0` shape is proven
// there: test/roles-lab/uplink-dhcp-ifupdown.test.ts), so the client is a VM host booted with that stanza, the lab's
// seed unit told to leave eth0's address to it (OWN_IPV4_MARKER), NetworkManager leaving eth0 alone (the image's
// ifupdown plugin, managed=false); the second host (nspawn) serves DHCP. The same steps as the nspawn scenario
// (test/helpers/lab-ifupdown.ts): rollback, move with dhclient's client id, second run and --check idle, a power cycle
// after which ifup@eth0 brings eth0 up `manual` (no dhclient) and br-ex takes the lease, the reverse move.
import test from 'ava';
import { loadavg } from 'node:os';
import path from 'node:path';
import { labReboot } from '../../src/lab/index.js';
import { sleep } from '../../src/lab/run.js';
import { OWN_IPV4_MARKER } from '../../src/lab/network.js';
import { dhcpServer, leasedAddr } from '../helpers/lab-dhcp.js';
import { dhclientHoldsLease, readWhole, leaseOnBrExAfterBoot, moveKeepsClientId, reverseMoveGivesLeaseBack, rollbackGivesLeaseBack } from '../helpers/lab-ifupdown.js';
import { CONFIRM_TIMEOUT, esc, recordProbe, vmUplinkLab } from './bond-lab.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';
import { scenarioLog } from './scenario-log.js';
import { vmSh } from './vm-ssh.js';
import { shellJoin } from '../../src/transports/quote.js';

const LAB = vmLabName('vmdhcphotplg');
const INTERFACES = '/etc/network/interfaces';
// What Debian's installer appends to the rootfs's file (its comment and `source` line stay above).
const INSTALLER_LINES = '\n# The loopback network interface\nauto lo\niface lo inet loopback\n\n# The primary network interface\nallow-hotplug eth0\niface eth0 inet dhcp\n';

test('allow-hotplug DHCP uplink on a VM: ifup@eth0\'s dhclient at boot, rollback, move with its lease and client id, idle runs, power cycle (eth0 manual), reverse move', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const log = scenarioLog(t, LAB);
  const load = () => loadavg()[0]!.toFixed(1); // the machine's
  const l = await vmUplinkLab(t, LAB, 1, { hosts: 2, kinds: ['vm', 'nspawn'], packages: ['isc-dhcp-client', 'ifupdown'] });
  log.note(`machine load ${load()} at the start`);
  const lease = await dhcpServer(l.state, l.dir, { configure_ovs_backend: 'ovs', configure_ovs_confirm_timeout: CONFIRM_TIMEOUT }, (h, cmd) => vmSh(l.state, h, cmd));
  const { client, onHost } = lease;

  // NetworkManager's own config in the image: its ifupdown plugin leaves what /etc/network/interfaces names alone.
  const nmConf = await l.sh('cat /etc/NetworkManager/NetworkManager.conf; ls /etc/NetworkManager/conf.d');
  t.regex(nmConf, /^plugins=ifupdown,keyfile$[\s\S]*^\[ifupdown\]\nmanaged=false$/m, nmConf);
  // The installer's stanza, and the lab's marker: at the next boot the seed unit brings eth0 up without the lab's address.
  // On the disk before the power cycle (qemu killed: an append still in the page cache was lost, the stanza with it).
  const text = (await readWhole(lease, INTERFACES)) + INSTALLER_LINES;
  await l.sh(`printf %s ${shellJoin([INSTALLER_LINES])} >>${INTERFACES} && mkdir -p ${path.dirname(OWN_IPV4_MARKER)} && touch ${OWN_IPV4_MARKER} && sync`);
  let at = Date.now();
  await labReboot(client.name, { name: l.state.name, timeoutMs: 12 * 60_000 });
  log.step('boot with the stanza (SSH at the lease)', at);
  lease.addr = await leasedAddr(lease);

  // ifup@eth0.service (udev's hotplug event), not networking.service, ran the dhclient that holds the lease.
  t.is((await l.sh('ip -o -4 addr show dev eth0 | wc -l')).trim(), '1', `one address on eth0, the lease (the seed added none): ${lease.addr}`);
  // ifup@eth0 is `activating` until dhclient has the lease and forks (SSH may answer at the lease before).
  let unit = '';
  for (const until = Date.now() + 180_000; !/^active\n/.test(unit) && Date.now() < until;) {
    unit = await l.sh('systemctl is-active ifup@eth0.service; ifquery --state eth0; true');
    if (!/^active\n/.test(unit)) await sleep(3000);
  }
  const diag = () => l.sh('systemctl status --no-pager ifup@eth0.service networking.service; pgrep -a dhclient; ip -o -4 addr; cat /etc/network/interfaces; ls -l /var/lib/hostwire; journalctl -b --no-pager -o short-monotonic | grep -E "ifup|ifupdown|hostwire-seed|dhclient" | tail -n 40; true');
  t.regex(unit, /^active\neth0=eth0\s*$/, unit.startsWith('active') ? unit : await diag());
  t.regex(await l.sh('cat /proc/$(cat /run/dhclient.eth0.pid)/cgroup'), /^0::\/system\.slice\/ifup@eth0\.service$/m, 'dhclient lives in ifup@eth0.service');
  const unitLog = await l.sh('journalctl -b -u ifup@eth0.service --no-pager -o cat');
  t.regex(unitLog, new RegExp(`bound to ${esc(client.ip)} `), unitLog);
  t.notRegex(await l.sh('journalctl -b --no-pager -o cat -u networking.service; true'), /DHCP/, 'networking.service\'s `ifup -a` asked for no lease');
  t.regex(await l.sh('nmcli -t -f DEVICE,STATE device'), /^eth0:unmanaged$/m, 'NetworkManager leaves eth0 alone');
  log.note(`dhclient at boot: ${(await l.sh('systemctl status --no-pager --lines=0 ifup@eth0.service | head -n 4')).trim().replace(/\n\s*/g, ' | ')}`);
  const u = await dhclientHoldsLease(t, lease, INTERFACES, text);
  await recordProbe(l, 'probe-ifupdown-hotplug-dhcp'); // HW_RECORD_DIR: the module's probe, for the pure tests

  at = Date.now();
  await rollbackGivesLeaseBack(t, u, 20);
  log.step(`rollback drill (load ${load()})`, at);
  at = Date.now();
  await moveKeepsClientId(t, u, new RegExp(`\\nallow-hotplug eth0\\n# hostwire configure_ovs: .* it was: iface eth0 inet dhcp\\niface eth0 inet manual\\n$`));
  log.step(`move, second run, --check (load ${load()})`, at);

  at = Date.now();
  await labReboot(client.name, { name: l.state.name, timeoutMs: 12 * 60_000 });
  log.step('power cycle (SSH)', at);
  await leaseOnBrExAfterBoot(t, u, 300_000);
  log.step('power cycle (the lease on br-ex)', at);
  t.regex(await l.sh('systemctl is-active ifup@eth0.service hostwire-configure-ovs.service; ifquery --state eth0'), /^active\nactive\neth0=eth0\s*$/, 'ifup@eth0 brought eth0 up (manual), the boot oneshot ran');
  t.notRegex(await l.sh('journalctl -b -u ifup@eth0.service --no-pager -o cat'), /DHCP/, 'no DHCP from ifup@eth0 this boot');
  t.deepEqual((await lease.role()).changed, [], 'a run after the power cycle changes nothing');

  at = Date.now();
  await reverseMoveGivesLeaseBack(t, u, 180_000);
  log.step(`reverse move (load ${load()})`, at);
  t.is((await onHost(client, 'ovs-vsctl list-br')).trim(), '', 'no bridge left');
});
