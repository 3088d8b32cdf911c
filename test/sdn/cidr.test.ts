import test from 'ava';
import { cidrSize, containsCidr, formatCidr, formatIp, nthSubnet, overlaps, parseCidr, parseIp, subnetCount } from '../../src/sdn/cidr.js';

test('IPv4 CIDRs parse, print and compare', (t) => {
  const n = parseCidr('10.128.0.0/14');
  t.is(formatCidr(n), '10.128.0.0/14');
  t.is(cidrSize(n), 262144n);
  t.is(subnetCount(n, 23), 512n);
  t.is(formatCidr(nthSubnet(n, 23, 511n)), '10.131.254.0/23');
  t.true(containsCidr(n, parseCidr('10.131.254.0/23')));
  t.false(containsCidr(n, parseCidr('10.132.0.0/23')));
  t.true(overlaps(parseCidr('10.1.0.0/16'), parseCidr('10.1.255.0/24')));
  t.false(overlaps(parseCidr('10.1.0.0/24'), parseCidr('10.1.1.0/24')));
  t.is(formatCidr(parseCidr('0.0.0.0/0')), '0.0.0.0/0');
  t.is(formatIp(4, parseIp('192.168.0.100').value + 1n), '192.168.0.101');
});

test('IPv6 CIDRs use the same math', (t) => {
  const n = parseCidr('fd00:10::/48');
  t.is(n.family, 6);
  t.is(formatCidr(nthSubnet(n, 64, 3n)), 'fd00:10:0:3::/64');
  t.is(subnetCount(n, 64), 65536n);
  t.true(containsCidr(n, parseCidr('fd00:10:0:ffff::/64')));
  t.false(overlaps(n, parseCidr('fd00:11::/48')));
  t.false(overlaps(n, parseCidr('10.0.0.0/8')), 'different families never overlap');
});

test('bad CIDRs name the input and the expected form', (t) => {
  t.throws(() => parseCidr('10.1.2.3/16', '--network'), { message: "--network: '10.1.2.3/16' has host bits set; expected a network address like 10.1.0.0/16" });
  t.throws(() => parseCidr('10.1.0.0', 'pod_network_cidr'), { message: "pod_network_cidr: expected a CIDR like 10.1.0.0/16, got '10.1.0.0'" });
  t.throws(() => parseCidr('10.1.0.0/33'), { message: /prefix length \/33 is longer than 32 bits/ });
  t.throws(() => parseCidr('10.1/16'), { message: /expected an IPv4 address like 192\.168\.0\.10/ }, 'no short or octal forms: Go rejects them');
  t.throws(() => parseIp('::ffff:10.0.0.1', 'public_ip'), { message: /write it as 10\.0\.0\.1/ });
});
