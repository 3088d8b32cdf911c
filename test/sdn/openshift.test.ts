// The cases of openshift/sdn's subnet_allocator_test.go, run against this port.
import test from 'ava';
import { type Cidr, formatCidr, parseCidr } from '../../src/sdn/cidr.js';
import { openshiftAllocate, openshiftLayout, openshiftOrder } from '../../src/sdn/openshift.js';

/** A stateful allocator like the reference's subnetAllocatorRange. */
function allocator(net: string, hostBits: number) {
  const l = openshiftLayout(parseCidr(net), hostBits);
  const used = new Set<string>();
  const s = {
    next: 0,
    alloc(): string {
      const r = openshiftAllocate(l, (c: Cidr) => used.has(formatCidr(c)), s.next);
      s.next = r.next;
      used.add(formatCidr(r.subnet));
      return formatCidr(r.subnet);
    },
    release: (sn: string) => used.delete(sn),
  };
  return s;
}

test('hostBits 8: plain /24 order, then full', (t) => {
  const a = allocator('10.1.0.0/16', 8);
  for (let n = 0; n < 256; n++) t.is(a.alloc(), `10.1.${n}.0/24`);
  t.throws(() => a.alloc(), { message: /10\.1\.0\.0\/16 with hostsubnetlength 8 is exhausted: all 256 subnets of \/24 are allocated/ });
});

test('hostBits 10 (no rotation: the subnet bits stay in one octet)', (t) => {
  const a = allocator('10.1.0.0/16', 10);
  for (let n = 0; n < 64; n++) t.is(a.alloc(), `10.1.${n * 4}.0/22`);
  t.throws(() => a.alloc());
});

test('seed example: 10.1.0.0/16 with hostsubnetlength 6 rotates, then the cursor wraps', (t) => {
  const a = allocator('10.1.0.0/16', 6);
  for (let n = 0; n < 256; n++) t.is(a.alloc(), `10.1.${n}.0/26`);
  for (let n = 0; n < 256; n++) t.is(a.alloc(), `10.1.${n}.64/26`);
  t.is(a.alloc(), '10.1.0.128/26');
  a.next = 1023;
  t.is(a.alloc(), '10.1.255.192/26');
  t.is(a.alloc(), '10.1.1.128/26', 'after the wrap: the next unallocated one (513)');
});

test('rotation across octets: 10.0.0.0/14 with hostBits 10', (t) => {
  const a = allocator('10.0.0.0/14', 10);
  for (let n = 0; n < 4; n++) t.is(a.alloc(), `10.${n}.0.0/22`);
  for (let n = 0; n < 4; n++) t.is(a.alloc(), `10.${n}.4.0/22`);
  t.is(a.alloc(), '10.0.8.0/22');
  a.next = 255;
  t.is(a.alloc(), '10.3.252.0/22');
  t.is(a.alloc(), '10.1.8.0/22');
});

test('OpenShift default 10.128.0.0/14 hostsubnetlength 9: /23s, 512 of them, rotated', (t) => {
  const l = openshiftLayout(parseCidr('10.128.0.0/14'), 9);
  t.is(l.count, 512);
  t.deepEqual(openshiftOrder(l, 4).map(formatCidr), ['10.128.0.0/23', '10.129.0.0/23', '10.130.0.0/23', '10.131.0.0/23']);
  t.is(formatCidr(openshiftOrder(l, 5)[4]), '10.128.2.0/23');
});

test('no subnet bits, and invalid host bits', (t) => {
  const a = allocator('10.1.0.0/16', 16);
  t.is(a.alloc(), '10.1.0.0/16');
  t.throws(() => a.alloc());
  t.throws(() => openshiftLayout(parseCidr('10.1.0.0/16'), 18), { message: /18 host bits do not fit into 10\.1\.0\.0\/16; expected 1\.\.16/ });
  t.throws(() => openshiftLayout(parseCidr('10.1.0.0/16'), 0), { message: /host capacity cannot be zero/ });
  t.throws(() => openshiftLayout(parseCidr('fd00::/48'), 16), { message: /IPv4 networks only/ });
});

test('a released subnet is reused only after the cursor wraps (round robin)', (t) => {
  const a = allocator('10.1.0.0/16', 14);
  const got = [a.alloc(), a.alloc(), a.alloc()];
  t.deepEqual(got, ['10.1.0.0/18', '10.1.64.0/18', '10.1.128.0/18']);
  a.release('10.1.64.0/18');
  t.is(a.alloc(), '10.1.192.0/18', 'the cursor moves on first');
  t.is(a.alloc(), '10.1.64.0/18', 'then wraps to the released one');
  t.throws(() => a.alloc());
});
