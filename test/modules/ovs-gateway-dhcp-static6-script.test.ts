// The host script's side of a DHCPv4 uplink with static IPv6 beside the lease (and static routes), run by dash
// with `ip`, NM and systemd stubbed: networkd on br-ex gets the static IPv6 address (and keeps a link-local),
// the move's check wants the IPv6 default route at the bridge's metric (the lease's IPv4 one as before), and
// restore_prev (the reverse move from the saved .prev) puts the static addresses and routes back that are not
// there yet (it replayed none on a DHCP uplink: without NM nothing gave them back), never the lease's default
// route, and leaves alone the ones NetworkManager's re-activated profile put back already.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderPrev } from '../../src/modules/ovs_gateway/env.js';

const part = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/script/configure-ovs-${n}.sh`, import.meta.url), 'utf8');
// networkd's files go to the test's own dir, never the machine's /run/systemd.
const SCRIPT = ['apply', 'nm', 'networkd', 'state', 'check'].map(part).join('\n').replaceAll('/run/systemd/', '$D/systemd/');
const MAC = '96:66:6e:19:f6:32';
const ROUTES = ['default via 10.138.160.1 metric 100', '10.99.0.0/16 via 10.138.160.1 metric 200', '-6 default via fd5c:8b::1 metric 100', 'fd5c:98::/48 via fd5c:8b::1 metric 300'];

/** Runs `call` with the script and stubs in a fresh dir ($D); `ip` logs what it is told to change. */
function run(t: { teardown(f: () => void): void }, call: string, files: Record<string, string> = {}): { out: string; log: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-dhcp6-script-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [n, text] of Object.entries({ log: '', v4: '', v6: '', addr: '', ...files })) writeFileSync(path.join(dir, n), text);
  const stub = [
    `ip() { case "$*" in
      '-4 route show table main dev eth0'|'-4 route show default dev br-ex') cat "$D/v4" ;;
      '-6 route show table main dev eth0'|'-6 route show default dev br-ex') cat "$D/v6" ;;
      '-o addr show dev eth0') cat "$D/addr" ;;
      *) echo "ip $*" >>"$D/log" ;;
    esac; }`,
    'nmcli() { echo "nmcli $*" >>"$D/log"; }', 'nm_running() { return 1; }', 'vsctl() { :; }', 'nft() { return 1; }',
    'systemctl() { return 1; }', 'networkctl() { :; }', 'nm_unmanage_all() { :; }',
  ].join('\n');
  const out = execFileSync('dash', ['-c', `${SCRIPT}\n${stub}\nD=${dir} LIB=${dir} ETC=${dir}\n${call}`], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  return { out, log: readFileSync(path.join(dir, 'log'), 'utf8').split('\n').filter(Boolean) };
}

const prev = renderPrev({ iface: 'eth0', mac: MAC, mtu: 1500, method: 'dhcp', addrs: ['fd5c:8b::11/64'], routes: ROUTES, gateways: ['10.138.160.1', 'fd5c:8b::1'] });

test('restore_prev of a DHCP uplink without NM puts its static IPv6 address and every static route back, not the lease\'s default route', (t) => {
  const r = run(t, 'restore_prev br-ex', { 'br-ex.prev': prev });
  t.deepEqual(r.log.filter((l) => / (addr|route) replace /.test(l)), [
    'ip addr replace fd5c:8b::11/64 dev eth0',
    'ip route replace 10.99.0.0/16 via 10.138.160.1 metric 200 dev eth0',
    'ip -6 route replace default via fd5c:8b::1 metric 100 dev eth0',
    'ip route replace fd5c:98::/48 via fd5c:8b::1 metric 300 dev eth0',
  ], r.out);
});

test('restore_prev leaves alone what the re-activated profile put back already (same gateway and metric); a route at another metric is put back', (t) => {
  const r = run(t, 'restore_prev br-ex', {
    'br-ex.prev': prev,
    addr: '2: eth0    inet6 fd5c:8b::11/64 scope global noprefixroute \\       valid_lft forever preferred_lft forever\n',
    // 10.99.0.0/16 at metric 100 is not the recorded one (metric 200); the IPv6 ones are NM's at the recorded metrics.
    v4: '10.99.0.0/16 via 10.138.160.1 proto static metric 100 \n10.138.160.0/24 proto kernel scope link src 10.138.160.12 metric 100 \n',
    v6: 'fd5c:8b::/64 proto kernel metric 100 pref medium\ndefault via fd5c:8b::1 proto static metric 100 pref medium\nfd5c:98::/48 via fd5c:8b::1 proto static metric 300 pref medium\n',
  });
  t.deepEqual(r.log.filter((l) => / (addr|route) replace /.test(l)), ['ip route replace 10.99.0.0/16 via 10.138.160.1 metric 200 dev eth0'], r.out);
});

test('networkd on br-ex: DHCPv4 for the lease, the static IPv6 address beside it, the link-local kept', (t) => {
  const r = run(t, `BRIDGE=br-ex MAC=${MAC} METHOD=dhcp METHOD6= ADDRS=fd5c:8b::11/64 METRIC=48; networkd_conf; cat "$D/systemd/network/10-hostwire-br-ex.network"`);
  t.regex(r.out, /\nDHCP=ipv4\n/);
  t.regex(r.out, /\nLinkLocalAddressing=ipv6\n/);
  t.regex(r.out, /\nAddress=fd5c:8b::11\/64\n/);
  t.regex(r.out, /\n\[DHCPv4\]\nClientIdentifier=mac\nRouteMetric=48\n/);
  const v4only = run(t, `BRIDGE=br-ex MAC=${MAC} METHOD=dhcp METHOD6= ADDRS= METRIC=48; networkd_conf; cat "$D/systemd/network/10-hostwire-br-ex.network"`);
  t.regex(v4only.out, /\nLinkLocalAddressing=no\n/, 'a lease alone: as before');
  t.notRegex(v4only.out, /\nAddress=/);
});

test('the move\'s check of a DHCP uplink wants the static IPv6 default route at the bridge\'s metric besides the lease\'s', (t) => {
  const env = `BRIDGE=br-ex METHOD=dhcp METHOD6= METRIC=48 ROUTES='-6 default via fd5c:8b::1 metric 48;fd5c:98::/48 via fd5c:8b::1 metric 300'`;
  const lease = 'default via 10.138.160.1 proto dhcp src 10.138.160.12 metric 48 \n';
  t.regex(run(t, `${env}; routes_ok; echo "rc=$?"`, { v4: lease, v6: 'default via fd5c:8b::1 proto static metric 1024 pref medium\n' }).out,
    /default route "-6 default via fd5c:8b::1 metric 48" missing on br-ex[\s\S]*rc=1/);
  t.regex(run(t, `${env}; routes_ok; echo "rc=$?"`, { v4: lease, v6: 'default via fd5c:8b::1 metric 48 pref medium\n' }).out, /^rc=0\n$/);
  t.regex(run(t, `${env}; routes_ok; echo "rc=$?"`, { v6: 'default via fd5c:8b::1 metric 48 pref medium\n' }).out, /no default route on br-ex \(DHCP\)[\s\S]*rc=1/);
});

// Routes with a preferred source, mtu and advmss (a default route's too): the replay compares them as well, so a
// route NM's profile put back without them is replaced with them (route_on compared destination, gateway and
// metric only: the route stayed without them), and the move's check wants them on the bridge's default route.
const ATTR_ROUTES = ['10.99.0.0/16 via 10.138.160.1 metric 200 src 10.138.160.12 mtu 1400 advmss 1360', '-6 default via fd5c:8b::1 metric 100 src fd5c:8b::11 mtu 1450 advmss 1390'];

test('restore_prev puts back a route that came back without its src, mtu and advmss; one that has them is left alone', (t) => {
  const p = renderPrev({ iface: 'eth0', mac: MAC, mtu: 1500, method: 'dhcp', addrs: ['fd5c:8b::11/64'], routes: ATTR_ROUTES, gateways: ['10.138.160.1', 'fd5c:8b::1'] });
  const r = run(t, 'sleep() { :; }; restore_prev br-ex', {
    'br-ex.prev': p,
    addr: '2: eth0    inet6 fd5c:8b::11/64 scope global noprefixroute \\       valid_lft forever preferred_lft forever\n',
    v4: '10.99.0.0/16 via 10.138.160.1 proto static metric 200 \n',
    v6: 'default via fd5c:8b::1 proto static src fd5c:8b::11 metric 100 mtu 1450 advmss 1390 pref medium\n',
  });
  t.deepEqual(r.log.filter((l) => / (addr|route) replace /.test(l)), [`ip route replace ${ATTR_ROUTES[0]} dev eth0`], r.out);
  // Only the mtu differs (or is locked: never recorded so): not the recorded route either.
  for (const v4 of ['10.99.0.0/16 via 10.138.160.1 proto static src 10.138.160.12 metric 200 mtu 1300 advmss 1360 \n',
    '10.99.0.0/16 via 10.138.160.1 proto static src 10.138.160.12 metric 200 mtu lock 1400 advmss 1360 \n']) {
    const again = run(t, 'sleep() { :; }; restore_prev br-ex', { 'br-ex.prev': p, v4, v6: 'default via fd5c:8b::1 proto static src fd5c:8b::11 metric 100 mtu 1450 advmss 1390 pref medium\n' });
    t.deepEqual(again.log.filter((l) => / route replace /.test(l)), [`ip route replace ${ATTR_ROUTES[0]} dev eth0`], v4);
  }
  const same = run(t, 'sleep() { :; }; restore_prev br-ex', { 'br-ex.prev': p, v4: '10.99.0.0/16 via 10.138.160.1 proto static src 10.138.160.12 metric 200 mtu 1400 advmss 1360 \n',
    v6: 'default via fd5c:8b::1 proto static src fd5c:8b::11 metric 100 mtu 1450 advmss 1390 pref medium\n' });
  t.deepEqual(same.log.filter((l) => / route replace /.test(l)), [], same.out);
});

test('the move\'s check wants a default route\'s src, mtu and advmss on the bridge\'s default route', (t) => {
  const env = `BRIDGE=br-ex METHOD=static METHOD6= METRIC=48 ROUTES='default via 10.138.160.1 src 10.138.160.12 mtu 1450 advmss 1410 metric 48;10.99.0.0/16 via 10.138.160.1 metric 200'`;
  t.regex(run(t, `${env}; routes_ok; echo "rc=$?"`, { v4: 'default via 10.138.160.1 src 10.138.160.12 metric 48 mtu 1450 advmss 1410 \n' }).out, /^rc=0\n$/);
  t.regex(run(t, `${env}; routes_ok; echo "rc=$?"`, { v4: 'default via 10.138.160.1 proto static src 10.138.160.12 metric 48 mtu 1450 advmss 1410 \n' }).out, /^rc=0\n$/, 'NM\'s');
  t.regex(run(t, `${env}; routes_ok; echo "rc=$?"`, { v4: 'default via 10.138.160.1 metric 48 \n' }).out,
    /default route "default via 10\.138\.160\.1 src 10\.138\.160\.12 mtu 1450 advmss 1410 metric 48" missing on br-ex[\s\S]*rc=1/);
  t.regex(run(t, `${env}; routes_ok; echo "rc=$?"`, { v4: 'default via 10.138.160.1 src 10.138.160.12 metric 100 mtu 1450 advmss 1410 \ndefault via 10.138.160.1 metric 48 \n' }).out,
    /missing on br-ex[\s\S]*rc=1/, 'the attributes on another metric\'s route are not the bridge\'s');
});
