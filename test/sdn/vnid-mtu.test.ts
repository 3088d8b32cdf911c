import test from 'ava';
import { allocateVnid, MAX_VNID, MIN_VNID } from '../../src/sdn/vnid.js';
import { podMtu } from '../../src/sdn/mtu.js';
import { mulberry32 } from './prng.js';

test('VNIDs: default gets 0, others 10..2^24-1, existing ones are kept', (t) => {
  const m = new Map<string, number>();
  t.is(allocateVnid('default', m), 0);
  m.set('default', 0);
  t.is(allocateVnid('team-a', m), 10);
  m.set('team-a', 10);
  t.is(allocateVnid('team-b', m), 11);
  t.is(allocateVnid('team-a', m), 10);
  t.is(allocateVnid('ops', m, { globalProjects: ['default', 'ops'] }), 0);
  const r = mulberry32(3);
  for (let i = 0; i < 50; i++) {
    const id = allocateVnid(`p${i}`, m, { rand: r });
    t.true(id >= MIN_VNID && id <= MAX_VNID && ![...m.values()].includes(id));
    m.set(`p${i}`, id);
  }
  t.throws(() => allocateVnid('x', new Map([['bad', 5]])), { message: /VNID 5 is outside 10\.\.16777215/ });
});

test('MTU per encapsulation, with the lab-measured limits as a floor', (t) => {
  t.is(podMtu(1500, 'vxlan').mtu, 1450);
  t.is(podMtu(1500, 'geneve').mtu, 1400);
  t.true(podMtu(1500, 'geneve').mtu <= 1442, 'the lab passed 1442 at most over geneve');
  t.true(podMtu(1500, 'vxlan').mtu <= 1450, 'and 1450 over vxlan');
  t.is(podMtu(1500, 'host-gw').mtu, 1500);
  t.is(podMtu(9000, 'geneve', { ipsec: true }).mtu, 8854);
  t.is(podMtu(1500, 'vxlan', { ipv6Underlay: true }).mtu, 1430);
  t.throws(() => podMtu(1300, 'geneve', { ipv6Pods: true }), { message: /leaves 1200 for pods after geneve 100; expected at least 1280/ });
  t.throws(() => podMtu(1500, 'host-gw', { ipsec: true }), { message: /no tunnel/ });
});
