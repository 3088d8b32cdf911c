// The host script's side of the uplink's static routes, run by dash with `ip` stubbed by its text output (as on the
// lab host of test/roles-lab/uplink-dualstack.test.ts): the rollback's snapshot holds every IPv6 route that is not
// the kernel's, a router advertisement's or DHCPv6's (it held only the default one: a static route was lost
// without a word), and the ovs backend's apply takes the uplink's IPv6 routes that stayed behind (its default
// at its old metric 1024 beside br-ex's) off it; the kernel's own stay.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const part = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/script/configure-ovs-${n}.sh`, import.meta.url), 'utf8');

const V4 = `default via 10.179.82.1 dev eth0
10.98.0.0/16 dev eth0 scope link
10.99.0.0/16 via 10.179.82.1 dev eth0 metric 200
10.20.0.0/16 via 10.179.82.1 dev eth0 src 10.179.82.11 metric 200 mtu 1400 advmss 1360
10.179.82.0/24 dev eth0 proto kernel scope link src 10.179.82.11
`;
const V6 = `fd5c:8a::/64 dev eth0 proto kernel metric 256 pref medium
fd5c:77::/64 dev eth0 proto ra metric 1024 expires 597sec pref medium
fd5c:62::10c dev eth0 proto dhcp metric 100 pref medium
fd5c:99::/48 via fd5c:8a::1 dev eth0 metric 300 pref medium
fd5c:98::/48 via fd5c:8a::1 dev eth0 src fd5c:8a::11 metric 300 mtu 1400 advmss 1340 pref medium
fe80::/64 dev eth0 proto kernel metric 256 pref medium
default via fd5c:8a::1 dev eth0 metric 1024 pref medium
`;
// eth0 once the move put its routes on br-ex: the kernel's link-local route and the old default are left.
const ETH0_AFTER = `fe80::/64 proto kernel metric 256 pref medium
default via fd5c:8a::1 metric 1024 pref medium
`;

function run(t: { teardown(f: () => void): void }, call: string): { out: string; log: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-route-script-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'v4'), V4);
  writeFileSync(path.join(dir, 'v6'), V6);
  writeFileSync(path.join(dir, 'eth0'), ETH0_AFTER);
  writeFileSync(path.join(dir, 'log'), '');
  const stub = `ip() { case "$*" in
    '-4 route show table main') cat "$D/v4" ;;
    '-6 route show table main') cat "$D/v6" ;;
    '-6 route show dev eth0 table main') cat "$D/eth0" ;;
    *) echo "ip $*" >>"$D/log"; [ -z "$FAILDEL" ] ;;
  esac; }`;
  const out = execFileSync('dash', ['-c', `${part('apply')}\n${part('state')}\n${stub}\nD=${dir}\n${call}`], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  return { out, log: readFileSync(path.join(dir, 'log'), 'utf8').split('\n').filter(Boolean) };
}

test('the rollback\'s snapshot holds the static routes of both families with their metrics, src, mtu and advmss; not the kernel\'s, RAs\' or DHCPv6\'s', (t) => {
  t.deepEqual(run(t, 'snap_routes').out.split('\n').filter(Boolean), [
    'default via 10.179.82.1 dev eth0', '10.98.0.0/16 dev eth0 scope link', '10.99.0.0/16 via 10.179.82.1 dev eth0 metric 200',
    '10.20.0.0/16 via 10.179.82.1 dev eth0 src 10.179.82.11 metric 200 mtu 1400 advmss 1360',
    'fd5c:99::/48 via fd5c:8a::1 dev eth0 metric 300', 'fd5c:98::/48 via fd5c:8a::1 dev eth0 src fd5c:8a::11 metric 300 mtu 1400 advmss 1340',
    'default via fd5c:8a::1 dev eth0 metric 1024',
  ]);
});

test('the apply takes the uplink\'s IPv6 routes left behind off it (a leftover is no reason to undo the move); the kernel\'s link-local route stays', (t) => {
  const r = run(t, 'drop_uplink_routes6 eth0; echo "rc=$?"');
  t.deepEqual(r.log, ['ip -6 route del default via fd5c:8a::1 metric 1024 dev eth0']);
  t.regex(r.out, /rc=0/);
  const refused = run(t, 'FAILDEL=1; drop_uplink_routes6 eth0; echo "rc=$?"');
  t.is(refused.out, 'the route default via fd5c:8a::1 metric 1024 stays on eth0\nrc=0\n', 'said, and the move goes on');
});
