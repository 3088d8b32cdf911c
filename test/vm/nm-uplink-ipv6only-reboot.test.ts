// VM tier (npm run test:vm), issue 20: the nm backend on an IPv6-only VM host, power-cycled after the move. One
// VM of `lab up --vms 1 --nm-ovs`; eth0 under an NM profile with IPv4 disabled and a static IPv6 address and
// default route (the lab's namespace the gateway), the lab's IPv6-only marker written (src/lab/network.ts
// IPV6_ONLY_MARKER: the seed unit leaves eth0 without the lab's IPv4 at boot, `lab reboot` waits at the IPv6
// address); hostwire connects over IPv6 throughout. The move (kernel datapath, datapath auto) gives MCO's five
// profiles with ovs-if-br-ex ipv6.method manual, the address, gateway and metric 48; SSH and ping over IPv6 on
// br-ex; a second run and --check change nothing. After the power cycle the boot oneshot makes the same profiles
// from /run again: br-ex holds the same IPv6 address and default route, SSH answers there, no IPv4 anywhere, and
// a run afterwards changes nothing (no idleAfterReboot: under the marker the seed leaves eth0 bare).
import test from 'ava';
import { labPing } from '../helpers/lab-ping.js';
import { ACTIVE_PROFILES, brExProfiles, IF_BR_EX_IP } from '../helpers/nm-backend.js';
import { SNAPSHOT } from '../roles-lab/uplink-helpers.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, esc, failure, vmUplinkLab, type VmUplinkLab } from './bond-lab.js';
import { rebootUntil, untilOutput } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { makeIpv6Only } from './ipv6-only.js';
import { scenarioLog } from './scenario-log.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const GW6 = 'fd21:8::1';
const HOST6 = 'fd21:8::11';
const NO_V4 = 'ip -o -4 addr show scope global; ip -4 route show default';
const DEFAULT6 = new RegExp(`^default via ${esc(GW6)} dev br-ex proto static metric 48 `, 'm');

test.serial('nm backend, IPv6-only static uplink on a VM: move over IPv6, idempotent, --check, a power cycle keeps the address on br-ex, a run after it idle', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const started = Date.now();
  const { note, step } = scenarioLog(t, LAB);
  const base = await vmUplinkLab(t, LAB, 1, { nmOvs: true });
  step('VM up', started);
  const { at6, held } = await makeIpv6Only(base, { host6: HOST6, gw6: GW6, unit: 'p6-v6only' });
  const l: VmUplinkLab = { ...at6, role: (vars = {}, check = false) => at6.role({ configure_ovs_backend: 'nm', ...vars }, check) };
  t.regex(held, new RegExp(`lab6[\\s\\S]*inet6 ${esc(HOST6)}/64`), 'eth0 holds its profile\'s IPv6 address (SSH over IPv6)');
  t.is((await l.sh(NO_V4)).trim(), '', 'no IPv4 before the move');

  let at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move, 'eth0');
  t.is(await untilOutput(l, ACTIVE_PROFILES, brExProfiles('eth0').trim()), brExProfiles('eth0').trim(), 'MCO\'s five profiles active');
  const ifBr = await l.sh(IF_BR_EX_IP);
  t.deepEqual(ifBr.split('\n').slice(0, 9).map((x) => x.replaceAll('\\', '')), ['disabled', '', '', '48', '', 'manual', `${HOST6}/64`, GW6, '48'], 'ovs-if-br-ex: IPv4 disabled, IPv6 manual, address, gateway, metric 48');
  t.regex(await l.sh('ip -6 route show default'), DEFAULT6);
  t.is((await l.sh('ip -o addr show dev eth0 scope global')).trim(), '', 'eth0 holds no address');
  t.is((await l.sh(NO_V4)).trim(), '', 'no IPv4 anywhere after the move');
  t.regex(await l.sh('cat /etc/hostwire/configure-ovs/br-ex.env'), new RegExp(`^CHECK='?${esc(GW6)}'?$`, 'm'), 'the move was checked by pinging the IPv6 gateway');
  const ping = await labPing(l.state, HOST6, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping.code, 0, `ping over IPv6 reaches the host on br-ex:\n${ping.stdout}`);

  at = Date.now();
  const moved = await l.sh(SNAPSHOT);
  await assertSecondRunIdle(t, l, SNAPSHOT, moved);
  step('second run and --check', at);

  // The power cycle: the marker keeps eth0 without the lab's IPv4; `lab reboot` waits at HOST6.
  at = Date.now();
  const bootId = (await l.sh('cat /proc/sys/kernel/random/boot_id')).trim();
  await rebootUntil(t, l, LAB, 'ip -o -6 addr show dev br-ex scope global -tentative; ip -6 route show default', new RegExp(`inet6 ${esc(HOST6)}/64[\\s\\S]*${DEFAULT6.source}`, 'm'));
  step('power cycle until the IPv6 address and default route are on br-ex (SSH there)', at);
  t.not((await l.sh('cat /proc/sys/kernel/random/boot_id')).trim(), bootId, 'a new boot');
  t.is(await untilOutput(l, ACTIVE_PROFILES, brExProfiles('eth0').trim()), brExProfiles('eth0').trim(), 'the same five profiles active after the boot');
  t.is(await l.sh(IF_BR_EX_IP), ifBr, 'ovs-if-br-ex made again with the same IP settings');
  t.is((await l.sh(NO_V4)).trim(), '', 'IPv6-only: no IPv4 anywhere after the boot');
  t.is((await l.sh('ip -o addr show dev eth0 scope global')).trim(), '', 'eth0 holds no address after the boot');
  t.regex(await l.sh('ovs-dpctl show'), /system@ovs-system[\s\S]*port \d+: eth0(\s|$)/m);
  const ping6 = await labPing(l.state, HOST6, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping6.code, 0, `ping over IPv6 reaches the host on br-ex after the boot:\n${ping6.stdout}`);
  at = Date.now();
  const after = await l.role();
  step('run after the power cycle', at);
  t.is(after.summary.exitCode, 0, failure(after));
  t.deepEqual(after.changed, [], 'a run after the power cycle changes nothing');
  t.is(await l.sh(SNAPSHOT), moved, 'addresses, routes, links, OVS, nft and files as before the power cycle');
  note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
