// The host script's side of routes with a preferred source, run by dash with `ip` stubbed: the kernel refuses
// an IPv6 route whose src is still in DAD ("Invalid source address", seen on the lab host: an address added
// without nodad, the route right after it), and the address the move (or the reverse move) just put on the
// link is - so before such a route the script waits for the address to leave DAD (10 s at most, then ip says
// why). IPv4 sources and routes without one are replayed at once, words as recorded (src, mtu, advmss).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const part = (n: string) => readFileSync(new URL(`../../../src/modules/ovs_gateway/script/configure-ovs-${n}.sh`, import.meta.url), 'utf8');

/** `ip -6 -o addr show -tentative` lists the source only from the `ready`-th call on. */
function run(t: { teardown(f: () => void): void }, call: string, ready: number): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-route-src-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'log'), '');
  writeFileSync(path.join(dir, 'n'), '0');
  const stub = `sleep() { :; }
ip() { case "$*" in
    '-6 -o addr show -tentative') n=$(($(cat "$D/n")+1)); echo $n >"$D/n"; echo "ip -6 addr show -tentative ($n)" >>"$D/log"
      [ $n -lt ${ready} ] || echo "7: br-ex    inet6 fd5c:8a::11/64 scope global \\\\       valid_lft forever preferred_lft forever" ;;
    *) echo "ip $*" >>"$D/log" ;;
  esac; }`;
  execFileSync('dash', ['-c', `${part('apply')}\n${part('state')}\n${stub}\nD=${dir}\n${call}`], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  return readFileSync(path.join(dir, 'log'), 'utf8').split('\n').filter(Boolean);
}

const V6 = 'fd5c:99::/48 via fd5c:8a::1 metric 300 src fd5c:8a::11 mtu 1400 advmss 1340';
const V4 = '10.20.0.0/16 via 10.1.2.1 metric 200 src 10.1.2.11 mtu 1400 advmss 1360';

test('an IPv6 route with a source waits for the address to leave DAD, then goes on with its words as recorded', (t) => {
  t.deepEqual(run(t, `route_replace ${V6} dev eth0`, 3), [
    'ip -6 addr show -tentative (1)', 'ip -6 addr show -tentative (2)', 'ip -6 addr show -tentative (3)', `ip route replace ${V6} dev eth0`]);
});

test('the wait ends after 50 tries (10 s): the route is tried anyway and ip says why', (t) => {
  const log = run(t, `route_replace ${V6} dev eth0`, 1000);
  t.is(log.length, 51);
  t.is(log.at(-1), `ip route replace ${V6} dev eth0`);
});

test('an IPv4 source, an IPv6 route without one and a -6 default route are replayed without waiting', (t) => {
  t.deepEqual(run(t, `route_replace ${V4} dev eth0; route_replace -6 default via fd5c:8a::1 metric 48 dev eth0; route_replace fd5c:98::/48 via fd5c:8a::1 mtu 1400 dev eth0`, 1), [
    `ip route replace ${V4} dev eth0`, 'ip -6 route replace default via fd5c:8a::1 metric 48 dev eth0', 'ip route replace fd5c:98::/48 via fd5c:8a::1 mtu 1400 dev eth0']);
});

test('a route line as ip prints it (what the rollback\'s snapshot replays) is read for its IPv6 source too', (t) => {
  const line = 'fd5c:99::/48 via fd5c:8a::1 dev eth0 src fd5c:8a::11 metric 300 mtu 1400 advmss 1340 pref medium';
  t.deepEqual(run(t, `r='${line}'; src6_ready $r; ip route replace $r`, 2), [
    'ip -6 addr show -tentative (1)', 'ip -6 addr show -tentative (2)', `ip route replace ${line}`]);
});
