// configure_ovs (mode uplink, both backends: nspawn hosts, `--nm-ovs` for nm) refuses, before any change, an
// uplink whose routes or rules would not move onto br-ex with it (uplink-unmovable.ts), one at a time: a
// multipath route through eth0, a route via eth0 in table 100, a static route with a preferred source and a locked
// MTU (src and mtu alone move: uplink-route-attrs.test.ts; the lock would be lost), and a policy rule naming eth0 as iif. Each refusal names the route or rule and leaves the host exactly as it
// was (addresses, routes, links, OVS, nft, no script or unit installed) and the route or rule itself in place;
// once it is gone the move goes ahead.
import test, { type ExecutionContext } from 'ava';
import { failure, snapshot, uplinkLab } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

async function scenario(t: ExecutionContext, backend: 'ovs' | 'nm'): Promise<void> {
  const name = testLabName(backend === 'ovs' ? 'rt27unm' : 'rt27unmn');
  const at = Date.now();
  // The first build of NM with OVS (minutes, once per machine) comes before the lab is up.
  const l = await uplinkLab(t, name, backend === 'nm' ? 1_200_000 : 240_000, backend === 'nm' ? { nmOvs: true } : {});
  if (backend === 'nm') t.timeout(300_000, `${name}: the test's own deadline once the lab is up`);
  t.log(`step lab up: ${((Date.now() - at) / 1000).toFixed(1)} s`);
  const vars = backend === 'nm' ? { configure_ovs_backend: 'nm' } : {};
  const peer = l.gw.replace(/\.\d+$/, '.12');
  const cases: [string, string, string, RegExp][] = [
    ['multipath', `ip route add 10.97.0.0/16 nexthop via ${l.gw} dev eth0 nexthop via ${peer} dev eth0`, 'ip route del 10.97.0.0/16',
      /the multipath route "10\.97\.0\.0\/16" \(IPv4\) has a next hop through "eth0"/],
    ['table 100', `ip route add 10.96.0.0/16 via ${l.gw} dev eth0 table 100`, 'ip route del 10.96.0.0/16 table 100',
      /the route "10\.96\.0\.0\/16" \(table "100"\) \(IPv4\) through "eth0" is not in the main table/],
    ['locked mtu', `ip route add 10.99.0.0/16 via ${l.gw} dev eth0 metric 200 src ${l.ip} mtu lock 1400`, 'ip route del 10.99.0.0/16',
      /the route "10\.99\.0\.0\/16" \(IPv4\) on "eth0" has "mtu lock"/],
    ['rule', 'ip rule add iif eth0 table 100 pref 1000', 'ip rule del pref 1000',
      /the IPv4 policy rule of priority "1000" names "eth0" as iif/],
  ];
  for (const [what, add, del, why] of cases) {
    await l.host.sh(add);
    const before = await snapshot(l);
    t.regex(before, /eth0 inet \S+\/24/);
    const shown = (await l.host.sh('ip route show table all | grep -v "^local\\|^broadcast\\|^multicast" ; ip rule show')).trim();
    const started = Date.now();
    const r = await l.role(vars);
    t.log(`step refuse ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    t.is(r.summary.exitCode, 2, `${what}: ${failure(r)}`);
    t.regex(failure(r), why, what);
    t.regex(failure(r), /The move carries only main-table routes with a gateway, metric, onlink, src, mtu and advmss/);
    t.notRegex(failure(r), /\n\s+at /, 'no stack trace');
    t.is(await snapshot(l), before, `${what}: the host as it was`);
    t.is((await l.host.sh('ip route show table all | grep -v "^local\\|^broadcast\\|^multicast" ; ip rule show')).trim(), shown, `${what}: the route or rule still there`);
    await l.host.sh(del);
  }
  const started = Date.now();
  const moved = await l.role(vars);
  t.log(`step move without them: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(moved.failed, []);
  t.regex(await l.host.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${l.ip.replaceAll('.', '\\.')}/24`));
}

test.serial('ovs backend: routes and rules that would not move are refused before any change', (t) => scenario(t, 'ovs'));
test.serial('nm backend: routes and rules that would not move are refused before any change', (t) => scenario(t, 'nm'));
