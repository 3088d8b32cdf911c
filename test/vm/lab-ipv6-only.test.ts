// VM tier (npm run test:vm): the lab's IPv6-only marker on a VM host (src/lab/network.ts IPV6_ONLY_MARKER). The
// host's own configuration (an NM profile on eth0: IPv4 disabled, a static IPv6 address and default route) and
// the marker; after `lab reboot` the seed unit leaves eth0 without the lab's IPv4 address, `lab reboot` waited
// for the host at its IPv6 address (the marker, read over SSH before the power cycle), and no IPv4 address or
// default route is anywhere - as on nspawn hosts, where a power cycle re-makes eth0 without it.
import test from 'ava';
import { labReboot } from '../../src/lab/index.js';
import { esc, vmUplinkLab } from './bond-lab.js';
import { makeIpv6Only } from './ipv6-only.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const GW6 = 'fd21:7::1';
const HOST6 = 'fd21:7::11';
const V4 = 'ip -o -4 addr show scope global; ip -4 route show default';

test.serial('an IPv6-only VM host (the lab\'s marker) keeps no IPv4 after a power cycle', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const note = (what: string) => { t.log(what); console.error(`[${LAB}] ${what}`); };
  const lab = await vmUplinkLab(t, LAB, 1);
  note(`VM up: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const bootId = (await lab.sh('cat /proc/sys/kernel/random/boot_id')).trim();
  const { at6: l, held: v6 } = await makeIpv6Only(lab, { host6: HOST6, gw6: GW6, unit: 'nb-v6only' });
  t.regex(v6, new RegExp(`inet6 ${esc(HOST6)}/64`), 'the host answers SSH over IPv6 on eth0');
  t.is((await l.sh(V4)).trim(), '', 'no IPv4 before the power cycle');

  const at = Date.now();
  await labReboot(lab.host.name, { name: LAB, timeoutMs: 15 * 60_000 });
  note(`lab reboot (ready at ${HOST6}): ${((Date.now() - at) / 1000).toFixed(0)} s`);
  t.not((await l.sh('cat /proc/sys/kernel/random/boot_id')).trim(), bootId, 'a new boot');
  t.is((await l.sh('systemctl is-active hostwire-seed.service')).trim(), 'active', 'the seed unit ran (identity, eth0 up)');
  t.regex(await l.sh('ip -o -6 addr show dev eth0 scope global'), new RegExp(`inet6 ${esc(HOST6)}/64`), 'SSH over IPv6 at the same address');
  t.is((await l.sh(V4)).trim(), '', 'no IPv4 address or default route anywhere after the power cycle');
  note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
