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
