// configure_ovs (mode uplink) on a dual-stack static uplink (IPv4 and IPv6 addresses, a default route of
// each family, and static routes besides: 10.99.0.0/16 via the gateway at metric 200, 10.98.0.0/16 on the link,
// fd5c:99::/48 via the IPv6 gateway at metric 300): a withheld confirmation puts both families back exactly,
// the move keeps the IPv6 address, the default routes and the static routes (same gateway and metric) on br-ex
// (the lab's namespace pings the host over IPv6 afterwards), a second run and --check change nothing, and a
// lost IPv6 default route or static route is seen as drift and repaired; after a power cycle the boot oneshot
// puts the addresses and routes back on br-ex and a run changes nothing. datapath_type auto
// picks netdev here (the container's kernel has no openvswitch module).
import test from 'ava';
import { execa } from 'execa';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { labSshArgv } from '../../src/lab/ssh.js';
import { parseEnvText } from '../../src/modules/ovs_gateway/env.js';
import { GATEWAY_PROBE } from '../../src/modules/ovs_gateway/probe.js';
import { sleep } from '../../src/lab/run.js';
import { rebootLabHost } from '../helpers/lab-host.js';
import { labPing } from '../helpers/lab-ping.js';
import { failure, snapshot, uplinkLab, type UplinkLab } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const V6_GW = 'fd5c:8a::1';
const V6_HOST = 'fd5c:8a::11';
/** datapath_type auto: this container's kernel has no openvswitch module, so the bridge must be netdev. */
const AUTO = { configure_ovs_datapath_type: 'auto' };

/** The module's own probe output, kept as recorded real output for the pure tests when HW_RECORD_DIR is set. */
async function record(l: UplinkLab, name: string): Promise<void> {
  const out = process.env.HW_RECORD_DIR;
  if (!out) return;
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, `${name}.txt`), await l.host.sh(GATEWAY_PROBE));
}

test('a dual-stack static uplink keeps its addresses, default and static routes through the rollback, the move and a power cycle', async (t) => {
  const l = await uplinkLab(t, testLabName(import.meta.url), 360_000);
  const { netns, bridge } = l.host.state;
  // The lab's namespace is the IPv6 gateway (an address on its bridge), as it is the IPv4 one.
  await execa('ip', ['-n', netns, 'addr', 'add', `${V6_GW}/64`, 'dev', bridge, 'nodad']);
  await l.host.sh(`ip addr add ${V6_HOST}/64 dev eth0 nodad && ip -6 route add default via ${V6_GW} dev eth0`);
  await l.host.sh(`ip route add 10.99.0.0/16 via ${l.gw} dev eth0 metric 200 && ip route add 10.98.0.0/16 dev eth0 && ip -6 route add fd5c:99::/48 via ${V6_GW} dev eth0 metric 300`);
  const routes = (dev: string) => l.host.sh(`ip route show 10.99.0.0/16 dev ${dev}; ip route show 10.98.0.0/16 dev ${dev}; ip -6 route show fd5c:99::/48 dev ${dev}`);
  const routesBefore = await routes('eth0');
  t.regex(routesBefore, new RegExp(`^10\\.99\\.0\\.0/16 via ${l.gw.replaceAll('.', '\\.')} metric 200 *\n10\\.98\\.0\\.0/16 scope link *\nfd5c:99::/48 via ${V6_GW} metric 300 pref medium *\n$`));
  t.is((await labPing(l.host.state, V6_HOST, ['-6', '-c1', '-W5'])).code, 0, 'IPv6 before the move');
  await record(l, 'probe-dualstack-routes-fresh');
  const before = await snapshot(l);
  t.regex(before, new RegExp(`eth0 inet6 ${V6_HOST}/64[\\s\\S]*default via ${V6_GW} dev eth0`));

  const drill = await l.role({ ...AUTO, configure_ovs_confirm: false, configure_ovs_confirm_timeout: 15 });
  t.regex(failure(drill), /rolled back after [\d.]+ s: no confirmation from hostwire within 15 s/);
  t.is(await snapshot(l), before, 'the rollback restored both families exactly');
  t.is(await routes('eth0'), routesBefore, 'the static routes back on eth0 exactly (gateway, metric)');

  const moved = await l.role(AUTO);
  t.deepEqual(moved.failed, []);
  t.true(moved.changed.length > 0);
  t.is((await l.host.sh('ovs-vsctl get bridge br-ex datapath_type')).trim(), 'netdev', 'auto: no kernel module here');
  t.regex(await l.host.sh('ip -o -6 addr show dev br-ex scope global'), new RegExp(`inet6 ${V6_HOST}/64`));
  t.regex(await l.host.sh('ip -6 route show default'), new RegExp(`default via ${V6_GW} dev br-ex metric 48`));
  t.regex(await l.host.sh('ip -o addr show dev eth0 scope global'), /^$/, 'eth0 holds no address');
  t.is(await routes('br-ex'), routesBefore, 'the static routes on br-ex with their gateways and metrics');
  // IPv6 routes outlive their link's addresses: none of eth0's own is left beside br-ex's (its default at metric 1024 was).
  t.is((await l.host.sh('ip route show dev eth0; ip -6 route show dev eth0 | grep -v " proto kernel "; true')).trim(), '', 'eth0 keeps no route of its own');
  const saved = (parseEnvText(await l.host.sh('cat /etc/hostwire/configure-ovs/br-ex.env')).ROUTES ?? '').split(';');
  for (const r of [`10.99.0.0/16 via ${l.gw} metric 200`, '10.98.0.0/16', `fd5c:99::/48 via ${V6_GW} metric 300`]) t.true(saved.includes(r), `the boot oneshot's state carries "${r}": ${saved.join(';')}`);
  // IPv6 through br-ex (DAD of the moved address may take a moment), and SSH to the IPv6 address.
  let ping6 = await labPing(l.host.state, V6_HOST, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && ping6.code !== 0; i++) ping6 = await labPing(l.host.state, V6_HOST, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping6.code, 0, ping6.stdout);
  const h = l.host.state.hosts[0]!;
  const [cmd, ...args] = labSshArgv(l.host.state, { ...h, ip: V6_HOST }, ['ip -o -6 addr show dev br-ex scope global'], ['-o', 'BatchMode=yes', '-o', `HostKeyAlias=${h.ip}`]);
  t.regex((await execa(cmd!, args)).stdout, new RegExp(`inet6 ${V6_HOST}/64`), 'SSH over IPv6 reaches the host on br-ex');
  await record(l, 'probe-dualstack-routes-moved');

  t.deepEqual((await l.role(AUTO)).changed, [], 'second run');
  const checked = await l.role(AUTO, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');

  // A lost IPv6 default route is drift: --check sees it, a run puts it back.
  await l.host.sh(`ip -6 route del default via ${V6_GW} dev br-ex`);
  await record(l, 'probe-dualstack-lost-v6-default');
  t.true((await l.role(AUTO, true)).changed.length > 0, '--check reports the missing IPv6 default route');
  t.deepEqual((await l.role(AUTO)).failed, []);
  t.regex(await l.host.sh('ip -6 route show default'), new RegExp(`default via ${V6_GW} dev br-ex metric 48`));

  // So is a lost static route.
  await l.host.sh('ip -6 route del fd5c:99::/48 dev br-ex');
  await record(l, 'probe-dualstack-lost-v6-route');
  t.true((await l.role(AUTO, true)).changed.length > 0, '--check reports the missing IPv6 static route');
  t.deepEqual((await l.role(AUTO)).failed, []);
  t.is(await routes('br-ex'), routesBefore, 'the static routes on br-ex again');

  // A power cycle: the boot oneshot puts the addresses and every route back on br-ex from br-ex.env.
  t.log(`reboot: SSH on br-ex ${(await rebootLabHost(l.host)).toFixed(1)} s after the power cycle began`);
  let back = '';
  for (let i = 0; i < 30 && back !== routesBefore; i++) { if (i) await sleep(1000); back = await routes('br-ex'); }
  t.is(back, routesBefore, 'the static routes back on br-ex after the reboot, gateways and metrics');
  t.regex(await l.host.sh('ip -6 route show default'), new RegExp(`^default via ${V6_GW} dev br-ex metric 48 `, 'm'));
  t.deepEqual((await l.role(AUTO)).changed, [], 'a run after the reboot');
});
