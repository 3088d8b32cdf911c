import test from 'ava';
import { formatCidr, formatIp, parseCidr } from '../../src/sdn/cidr.js';
import { flannelAllocate, flannelPool, parseSubnetKey, poolSubnetCount, subnetKey } from '../../src/sdn/flannel.js';
import { configDifferences, flannelConfig, planOrder, resolvePool } from '../../src/sdn/pool.js';
import { mulberry32 } from './prng.js';

test('flannel defaults: /24 for a /22 or larger network, prefix+2 below; the first subnet is skipped', (t) => {
  const p = flannelPool({ network: '10.1.0.0/16' });
  t.is(p.subnetLen, 24);
  t.is(formatIp(4, p.subnetMin), '10.1.1.0');
  t.is(formatIp(4, p.subnetMax), '10.1.255.0');
  t.is(poolSubnetCount(p), 255n);
  t.is(flannelPool({ network: '10.1.0.0/22' }).subnetLen, 24);
  t.is(flannelPool({ network: '10.1.0.0/23' }).subnetLen, 25);
  t.is(flannelPool({ network: '10.1.0.0/28' }).subnetLen, 30);
  t.throws(() => flannelPool({ network: '10.1.0.0/29' }), { message: /too small for flannel; the minimum useful network prefix is \/28/ });
  const v6 = flannelPool({ network: 'fd00:10::/48' });
  t.is(v6.subnetLen, 64);
  t.is(formatIp(6, v6.subnetMin), 'fd00:10:0:1::');
});

test('SubnetLen, SubnetMin and SubnetMax are checked as flannel does, with the argument named', (t) => {
  t.throws(() => flannelPool({ network: '10.1.0.0/16', subnetLen: 31 }), { message: /subnet_len: \/31 leaves no room/ });
  t.throws(() => flannelPool({ network: '10.1.0.0/16', subnetLen: 17 }), { message: /at least four \/17 subnets; expected 18 or more, got 17/ });
  t.throws(() => flannelPool({ network: '10.1.0.0/16', subnetMin: '10.2.0.0' }), { message: /subnet_min: 10\.2\.0\.0 is not in the range of the network 10\.1\.0\.0\/16/ });
  t.throws(() => flannelPool({ network: '10.1.0.0/16', subnetMax: '10.1.5.128' }), { message: /subnet_max: 10\.1\.5\.128 is not on a \/24 boundary; expected 10\.1\.5\.0/ });
  t.throws(() => flannelPool({ network: '10.1.0.0/16', subnetMin: '10.1.9.0', subnetMax: '10.1.5.0' }), { message: /is above/ });
  const p = flannelPool({ network: '10.1.0.0/16', subnetMin: '10.1.10.0', subnetMax: '10.1.12.0/24' });
  t.is(poolSubnetCount(p), 3n);
});

test('lowest pick is the first free subnet; random picks among the first 100 free, as flanneld', (t) => {
  const p = flannelPool({ network: '10.1.0.0/16' });
  const leases = ['10.1.1.0/24', '10.1.3.0/24'].map((s) => parseCidr(s));
  t.is(formatCidr(flannelAllocate(p, leases)), '10.1.2.0/24');
  const r = mulberry32(7);
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) seen.add(formatCidr(flannelAllocate(p, leases, 'random', r)));
  const thirds = [...seen].map((s) => Number(s.split('.')[2]));
  t.true(seen.size > 20, 'random spreads');
  t.true(Math.max(...thirds) <= 102, 'within the first 100 free (1 and 3 are taken)');
  t.false(seen.has('10.1.1.0/24') || seen.has('10.1.3.0/24'));
});

test('exhaustion is a clear error', (t) => {
  const p = flannelPool({ network: '10.1.0.0/28', subnetLen: 30 });
  const taken = planOrder({ style: 'flannel', ...p }, 10);
  t.deepEqual(taken.map(formatCidr), ['10.1.0.4/30', '10.1.0.8/30', '10.1.0.12/30']);
  t.throws(() => flannelAllocate(p, taken), { message: 'network 10.1.0.0/28 with subnet_len 30 is exhausted: 3 of 3 subnets between 10.1.0.4 and 10.1.0.12 are leased' });
});

test('lease keys as flannel writes them', (t) => {
  t.is(subnetKey(parseCidr('10.1.15.0/24')), '10.1.15.0-24');
  t.is(formatCidr(parseSubnetKey('/coreos.com/network/subnets/10.1.15.0-24')!), '10.1.15.0/24');
  t.is(formatCidr(parseSubnetKey('10.1.15.0-24&fd00:10:0:f::-64')!), '10.1.15.0/24');
  t.is(parseSubnetKey('garbage'), undefined);
});

test('config: created from the pool, and a stored config is compared by effective value', (t) => {
  const p = resolvePool({ network: '10.1.0.0/16', subnetLen: 24 });
  t.deepEqual(flannelConfig(p, 'host-gw'), { Network: '10.1.0.0/16', SubnetLen: 24, Backend: { Type: 'host-gw' } });
  t.deepEqual(configDifferences({ Network: '10.1.0.0/16', Backend: { Type: 'host-gw' } }, p, 'host-gw'), [], 'SubnetLen omitted = the default 24');
  t.deepEqual(configDifferences({ Network: '10.1.0.0/16', SubnetLen: 24, SubnetMin: '10.1.1.0', Backend: { Type: 'host-gw' } }, p, 'host-gw'), []);
  t.deepEqual(configDifferences({ Network: '10.2.0.0/16', SubnetLen: 25, Backend: { Type: 'vxlan' } }, p, 'host-gw'), [
    'Network is 10.2.0.0/16, the task asks for 10.1.0.0/16', 'SubnetLen is 25, the task asks for 24', 'Backend.Type is vxlan, the task asks for host-gw',
  ]);
  t.deepEqual(configDifferences({ Network: '10.1.0.0/16' }, p, 'host-gw'), ['Backend.Type is udp, the task asks for host-gw'], 'no Backend means udp in flannel');
  // OpenShift style gives out the first subnet too: the config covers the whole network so flanneld keeps that lease.
  const o = resolvePool({ network: '10.128.0.0/14', subnetLen: 23, style: 'openshift' });
  const oc = flannelConfig(o, 'host-gw');
  t.deepEqual(oc, { Network: '10.128.0.0/14', SubnetLen: 23, SubnetMin: '10.128.0.0', SubnetMax: '10.131.254.0', Backend: { Type: 'host-gw' } });
  t.deepEqual(configDifferences(oc, o, 'host-gw'), []);
});
