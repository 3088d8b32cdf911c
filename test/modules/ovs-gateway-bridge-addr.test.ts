// bridge_addr (the bridge's static addresses), run by dash with ip stubbed. IPv4 goes on with its broadcast
// (brd +), as networkd's Address= computes it: the kernel keeps an address's broadcast on replace, and networkd 252
// re-sent an address put there without one forever (on a VM: 12,300 RTM_NEWADDR for br-ex's address in 2 min,
// networkd at 100% CPU, the apply's SLAAC wait and the boot oneshot failed). One there without it goes first.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const NETWORKD = readFileSync(new URL('../../../src/modules/ovs_gateway/script/configure-ovs-networkd.sh', import.meta.url), 'utf8');

/** The ip commands bridge_addr runs for `addr` with `have` (an `ip -4 -o addr show` line, or none) on br-ex. */
function bridgeAddr(addr: string, have: string): string[] {
  const stub = `ip() { if [ "$1 $2 $3" = "-4 -o addr" ]; then printf '%s\\n' "$HAVE"; else echo "ip $*"; fi; }`;
  return execFileSync('dash', ['-c', `${NETWORKD}\n${stub}\nbridge_addr "$1" br-ex`, 'sh', addr],
    { encoding: 'utf8', env: { PATH: process.env.PATH, HAVE: have } }).split('\n').filter(Boolean);
}

test('a new IPv4 address goes on with its broadcast', (t) => {
  t.deepEqual(bridgeAddr('10.0.0.11/24', ''), ['ip addr replace 10.0.0.11/24 brd + dev br-ex']);
});

test('an IPv4 address there without its broadcast (networkd would loop on it) is taken off and put back with it', (t) => {
  t.deepEqual(bridgeAddr('10.0.0.11/24', '13: br-ex    inet 10.0.0.11/24 scope global br-ex\\       valid_lft forever preferred_lft forever'),
    ['ip addr del 10.0.0.11/24 dev br-ex', 'ip addr replace 10.0.0.11/24 brd + dev br-ex']);
});

test('an IPv4 address there with its broadcast is replaced in place', (t) => {
  t.deepEqual(bridgeAddr('10.0.0.11/24', '13: br-ex    inet 10.0.0.11/24 brd 10.0.0.255 scope global br-ex\\       valid_lft forever'),
    ['ip addr replace 10.0.0.11/24 brd + dev br-ex']);
});

test('a /31 or /32 has no broadcast: never taken off for the lack of one', (t) => {
  t.deepEqual(bridgeAddr('10.0.0.11/32', '13: br-ex    inet 10.0.0.11/32 scope global br-ex'), ['ip addr replace 10.0.0.11/32 brd + dev br-ex']);
  t.deepEqual(bridgeAddr('10.0.0.10/31', '13: br-ex    inet 10.0.0.10/31 scope global br-ex'), ['ip addr replace 10.0.0.10/31 brd + dev br-ex']);
});

test('IPv6 addresses have no broadcast', (t) => {
  t.deepEqual(bridgeAddr('fd00:1::11/64', ''), ['ip addr replace fd00:1::11/64 dev br-ex']);
});

test('another address sharing the first digits is not taken for this one', (t) => {
  t.deepEqual(bridgeAddr('10.0.0.1/24', '13: br-ex    inet 10.0.0.11/24 scope global br-ex'), ['ip addr replace 10.0.0.1/24 brd + dev br-ex']);
});
