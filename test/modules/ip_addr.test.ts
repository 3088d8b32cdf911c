import test from 'ava';
import { ipAddrModule, planAddrs, readAddrs, type IpAddrArgs } from '../../src/modules/ip_addr/ip_addr.js';
import { canonicalCidr, parseAddrs } from '../../src/modules/ip_addr/parse.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => ipAddrModule.args.parse(a) as IpAddrArgs;

test('parses ip -j addr show with scopes', (t) => {
  const all = parseAddrs(loadCase('ip_addr', 'addrs').stdout);
  t.deepEqual(all.get('br-t1')!.map((a) => `${a.cidr} ${a.scope}`).slice(0, 2), ['192.0.2.10/24 global', '2001:db8::1/64 global']);
  t.is(all.get('lo')![0].scope, 'host');
});

test('canonical addresses: v6 case and zeros, bare address', (t) => {
  t.is(canonicalCidr('2001:DB8:0::1/64'), '2001:db8::1/64');
  t.is(canonicalCidr('192.0.2.1'), '192.0.2.1/32');
  t.throws(() => canonicalCidr('192.0.2.1/40'));
});

test('recorded probe: wanted addresses present -> no change; exclusive removes the others', (t) => {
  const c = loadCase('ip_addr', 'probe-br');
  const all = readAddrs(c.stdout);
  t.deepEqual(planAddrs(all, args(c.args!)), []);
  const [ch] = planAddrs(all, args({ dev: 'br-t1', addresses: ['192.0.2.10/24', '192.0.2.11/24'], exclusive: true }));
  t.deepEqual(ch.run, ['ip addr del 2001:db8::1/64 dev br-t1', 'ip addr add 192.0.2.11/24 dev br-t1']);
  t.is(ch.after, '192.0.2.10/24\n192.0.2.11/24\n');
  t.deepEqual(planAddrs(all, args({ dev: 'br-t1', addresses: '192.0.2.10/24', state: 'absent' }))[0].run, ['ip addr del 192.0.2.10/24 dev br-t1']);
  t.throws(() => planAddrs(all, args({ dev: 'nodev', addresses: '192.0.2.1/24' })), { message: /device nodev does not exist/ });
});
