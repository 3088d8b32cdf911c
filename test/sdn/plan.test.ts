import test from 'ava';
import { planNodes } from '../../src/sdn/plan.js';
import { resolvePool } from '../../src/sdn/pool.js';
import type { Snapshot } from '../../src/sdn/store/types.js';

const pool = resolvePool({ network: '10.1.0.0/28', subnetLen: 30 });
const config = { Network: '10.1.0.0/28', SubnetLen: 30, Backend: { Type: 'host-gw' } };

test('etcd-style plan: matched by PublicIP; duplicates, stale, no public ip, no subnet left', (t) => {
  const snap: Snapshot = {
    config, cursor: 0,
    leases: [
      { subnet: '10.1.0.4/30', public_ip: '192.0.2.1' },
      { subnet: '10.1.0.8/30', public_ip: '192.0.2.1' },
      { subnet: '10.1.0.12/30', public_ip: '192.0.2.9' },
    ],
  };
  const plan = planNodes(pool, snap, [{ node: 'a', publicIp: '192.0.2.1' }, { node: 'b' }, { node: 'c', publicIp: '192.0.2.3' }], 'public_ip');
  t.deepEqual(plan.rows, [
    { node: 'a', public_ip: '192.0.2.1', subnet: '10.1.0.4/30', status: 'has' },
    { node: 'b', status: 'no public ip' },
    { node: 'c', public_ip: '192.0.2.3', status: 'no subnet left' },
  ]);
  t.deepEqual(plan.duplicates, [{ subnet: '10.1.0.8/30', public_ip: '192.0.2.1', of: 'a' }]);
  t.deepEqual(plan.stale, [{ subnet: '10.1.0.12/30', public_ip: '192.0.2.9' }]);
  t.false(plan.configMissing);
});

test('plan in inventory order replaces a lease that does not fit, and refuses a different config', (t) => {
  const snap: Snapshot = { config, cursor: 0, leases: [{ subnet: '10.1.0.0/29', node: 'a' }] };
  const plan = planNodes(pool, snap, [{ node: 'a' }, { node: 'b' }], 'node');
  t.deepEqual(plan.rows, [
    { node: 'a', subnet: '10.1.0.4/30', status: 'would get', replaces: '10.1.0.0/29' },
    { node: 'b', subnet: '10.1.0.8/30', status: 'would get' },
  ]);
  t.throws(() => planNodes(resolvePool({ network: '10.1.0.0/27' }), snap, [{ node: 'a' }], 'node', 'host-gw', 'the file'), { message: /refusing to change the network config in the file: Network is 10\.1\.0\.0\/28/ });
  t.true(planNodes(pool, { leases: [], cursor: 0 }, [], 'node').configMissing);
});
