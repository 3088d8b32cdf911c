// configure_ovs (mode uplink, both backends: nspawn hosts, `--nm-ovs` for nm) carries the uplink's routes with a
// preferred source and per-route mtu/advmss, both families (uplink-routes.ts): 10.20.0.0/16 via the gateway
// src <host> metric 200 mtu 1400 advmss 1360 and fd5c:99::/48 via the IPv6 gateway src <host6> metric 300 mtu 1400
// advmss 1340, and both default routes with theirs (src <host> mtu 1450 advmss 1410; src <host6> mtu 1450 advmss
// 1390: a multi-homed host pins its source, a fabric sets the default route's mtu). A withheld confirmation puts
// them back on eth0 exactly; the move puts them on br-ex as they were, the default routes at the bridge's metric
// (ovs: ip route in br-ex.env's ROUTES; nm: src=/mtu=/advmss= in ovs-if-br-ex's ipv4/ipv6.routes, a default route
// as 0.0.0.0/0 or ::/0 there instead of ipv4/ipv6.gateway); a second run and --check change nothing; a route that
// lost its attributes or went is drift (--check names it, a run puts it back); after a power cycle the boot
// oneshot (ovs) or NM from the profiles (nm) puts them back on br-ex and a run after it changes nothing; the
// reverse move (`configure-ovs restore br-ex`) puts them back on eth0 exactly.
// A run with HW_RECORD_DIR set keeps the module's probe output.
import test, { type ExecutionContext } from 'ava';
import { execa } from 'execa';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sleep } from '../../src/lab/run.js';
import { parseEnvText } from '../../src/modules/ovs_gateway/env.js';
import { GATEWAY_PROBE } from '../../src/modules/ovs_gateway/probe.js';
import { rebootLabHost } from '../helpers/lab-host.js';
import { failure, uplinkLab, type UplinkLab } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const V6_GW = 'fd5c:8a::1';
const V6_HOST = 'fd5c:8a::11';

async function record(l: UplinkLab, name: string): Promise<void> {
  const out = process.env.HW_RECORD_DIR;
  if (!out) return;
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, `${name}.txt`), await l.host.sh(GATEWAY_PROBE));
}

/** The two routes and the two default routes on `dev` as ip prints them (dev left out), NetworkManager's `proto static` too. */
const routesOn = (l: UplinkLab, dev: string) => l.host.sh(`ip route show 10.20.0.0/16 dev ${dev}; ip -6 route show fd5c:99::/48 dev ${dev}; `
  + `ip route show default dev ${dev}; ip -6 route show default dev ${dev}`);
const plain = (text: string) => text.replaceAll(' proto static', '');

/** Polls until the routes on `dev` read `want` (a moment after NM's activation or the boot oneshot), at most `s` seconds. */
async function routesBecome(l: UplinkLab, dev: string, want: string, s = 30): Promise<string> {
  let have = '';
  for (let i = 0; i < s && plain(have) !== want; i++) { if (i) await sleep(1000); have = await routesOn(l, dev); }
  return plain(have);
}

async function scenario(t: ExecutionContext, backend: 'ovs' | 'nm'): Promise<void> {
  const name = testLabName(backend === 'ovs' ? 'rtdef29ra' : 'rtdef29ran');
  const at = Date.now();
  const step = (what: string, since: number) => t.log(`step ${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
  // The first build of NM with OVS (minutes, once per machine) comes before the lab is up.
  const l = await uplinkLab(t, name, backend === 'nm' ? 1_200_000 : 360_000, backend === 'nm' ? { nmOvs: true } : {});
  if (backend === 'nm') t.timeout(360_000, `${name}: the test's own deadline once the lab is up`);
  step('lab up', at);
  const vars = { configure_ovs_datapath_type: 'auto', ...(backend === 'nm' ? { configure_ovs_backend: 'nm' } : {}) };
  const { netns, bridge } = l.host.state;
  await execa('ip', ['-n', netns, 'addr', 'add', `${V6_GW}/64`, 'dev', bridge, 'nodad']);
  await l.host.sh(`ip addr add ${V6_HOST}/64 dev eth0 nodad && ip -6 route add default via ${V6_GW} dev eth0 src ${V6_HOST} mtu 1450 advmss 1390`);
  await l.host.sh(`ip route add 10.20.0.0/16 via ${l.gw} dev eth0 src ${l.ip} metric 200 mtu 1400 advmss 1360 && `
    + `ip -6 route add fd5c:99::/48 via ${V6_GW} dev eth0 src ${V6_HOST} metric 300 mtu 1400 advmss 1340 && `
    + `ip route replace default via ${l.gw} dev eth0 src ${l.ip} mtu 1450 advmss 1410`);
  const before = await routesOn(l, 'eth0');
  const gw = l.gw.replaceAll('.', '\\.');
  const ip4 = l.ip.replaceAll('.', '\\.');
  t.regex(before, new RegExp(`^10\\.20\\.0\\.0/16 via ${gw} src ${ip4} metric 200 mtu 1400 advmss 1360 *\n`
    + `fd5c:99::/48 via ${V6_GW} src ${V6_HOST} metric 300 mtu 1400 advmss 1340 pref medium *\n`
    + `default via ${gw} src ${ip4} mtu 1450 advmss 1410 *\ndefault via ${V6_GW} src ${V6_HOST} metric 1024 mtu 1450 advmss 1390 pref medium *\n$`));
  // On br-ex the default routes are at the bridge's metric, the rest as on eth0.
  const onBridge = before.replace(/^(default via \S+ src \S+) (mtu)/m, '$1 metric 48 $2').replace(/^(default via \S+ src \S+) metric 1024 /m, '$1 metric 48 ');
  await record(l, `probe-route-defaults-${backend}-fresh`);

  let started = Date.now();
  const drill = await l.role({ ...vars, configure_ovs_confirm: false, configure_ovs_confirm_timeout: 15 });
  step('withheld confirmation, rolled back', started);
  t.regex(failure(drill), /rolled back after [\d.]+ s: no confirmation from hostwire within 15 s/);
  t.is(plain(await routesOn(l, 'eth0')), before, 'the rollback put all four routes back on eth0 exactly (src, metric, mtu, advmss)');

  started = Date.now();
  const moved = await l.role(vars);
  step('move', started);
  t.deepEqual(moved.failed, [], failure(moved));
  t.is(await routesBecome(l, 'br-ex', onBridge), onBridge, 'all four routes on br-ex as they were on eth0, the default ones at metric 48');
  t.is((await routesOn(l, 'eth0')).trim(), '', 'none left on eth0');
  if (backend === 'ovs') {
    const saved = (parseEnvText(await l.host.sh('cat /etc/hostwire/configure-ovs/br-ex.env')).ROUTES ?? '').split(';');
    t.true(saved.includes(`10.20.0.0/16 via ${l.gw} metric 200 src ${l.ip} mtu 1400 advmss 1360`), saved.join(';'));
    t.true(saved.includes(`default via ${l.gw} src ${l.ip} mtu 1450 advmss 1410 metric 48`), saved.join(';'));
    t.true(saved.includes(`-6 default via ${V6_GW} src ${V6_HOST} mtu 1450 advmss 1390 metric 48`), saved.join(';'));
  } else {
    // -g escapes the colons of IPv6 addresses; the gateways are empty (the default routes are /0 routes).
    const nm = (await l.host.sh('nmcli -g ipv4.gateway,ipv4.routes,ipv6.gateway,ipv6.routes connection show ovs-if-br-ex')).replaceAll('\\:', ':');
    t.log(`ovs-if-br-ex: ${nm.trim().replaceAll('\n', ' | ')}`);
    t.regex(nm, new RegExp(`10\\.20\\.0\\.0/16 ${gw} 200 advmss=1360 mtu=1400 src=${ip4}`), nm);
    t.regex(nm, new RegExp(`0\\.0\\.0\\.0/0 ${gw} 48 advmss=1410 mtu=1450 src=${ip4}`), nm);
    t.regex(nm, new RegExp(`::/0 ${V6_GW} 48 advmss=1390 mtu=1450 src=${V6_HOST}`), nm);
    t.regex(nm, /^\n[^\n]+\n\n[^\n]+\n?$/, 'no ipv4.gateway or ipv6.gateway');
  }
  await record(l, `probe-route-defaults-${backend}-moved`);

  started = Date.now();
  t.deepEqual((await l.role(vars)).changed, [], 'second run');
  const checked = await l.role(vars, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
  step('second run and --check', started);

  // The IPv4 route and both default routes put back without their attributes and the IPv6 route gone: drift, named
  // by --check, repaired by a run.
  await l.host.sh(`ip route replace 10.20.0.0/16 via ${l.gw} dev br-ex metric 200 && ip -6 route del fd5c:99::/48 dev br-ex && `
    + `ip route replace default via ${l.gw} dev br-ex metric 48 && ip -6 route replace default via ${V6_GW} dev br-ex metric 48`);
  await record(l, `probe-route-defaults-${backend}-drift`);
  started = Date.now();
  const drift = await l.role(vars, true);
  t.true(drift.changed.length > 0, '--check reports the drift');
  t.regex(JSON.stringify(drift.events), /10\.20\.0\.0\/16 via [\d.]+ metric 200 src [\d.]+ mtu 1400 advmss 1360\\?" on br-ex differs/);
  t.regex(JSON.stringify(drift.events), /fd5c:99::\/48 via fd5c:8a::1 metric 300 src fd5c:8a::11 mtu 1400 advmss 1340\\?" missing on br-ex/);
  t.regex(JSON.stringify(drift.events), /default via [\d.]+ src [\d.]+ mtu 1450 advmss 1410 metric 48\\?" on br-ex differs \(now: src none, mtu none, advmss none\)/);
  t.regex(JSON.stringify(drift.events), /-6 default via fd5c:8a::1 src fd5c:8a::11 mtu 1450 advmss 1390 metric 48\\?" on br-ex differs \(now: src none, mtu none, advmss none\)/);
  const repaired = await l.role(vars);
  step('drift seen and repaired', started);
  t.deepEqual(repaired.failed, [], failure(repaired));
  t.is(await routesBecome(l, 'br-ex', onBridge), onBridge, 'all four routes back on br-ex with their attributes');

  t.log(`reboot: SSH on br-ex ${(await rebootLabHost(l.host)).toFixed(1)} s after the power cycle began`);
  t.is(await routesBecome(l, 'br-ex', onBridge), onBridge, 'the boot oneshot put all four routes back on br-ex');
  t.deepEqual((await l.role(vars)).changed, [], 'a run after the reboot');

  started = Date.now();
  await l.host.sh('/usr/local/libexec/hostwire/configure-ovs restore br-ex');
  step('reverse move', started);
  t.is(await routesBecome(l, 'eth0', before), before, 'the reverse move put all four routes back on eth0 exactly');
}

test.serial('ovs backend: routes with src, mtu and advmss, default ones too, move, are repaired and come back exactly', (t) => scenario(t, 'ovs'));
test.serial('nm backend: routes with src, mtu and advmss, default ones too, move, are repaired and come back exactly', (t) => scenario(t, 'nm'));
