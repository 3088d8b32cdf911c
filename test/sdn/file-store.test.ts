import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { FileStore, defaultStateFile } from '../../src/sdn/store/file-store.js';
import { withLock } from '../../src/sdn/store/lock.js';
import { flannelConfig, resolvePool, type PoolInput } from '../../src/sdn/pool.js';

const run = promisify(execFile);
let dir: string;
test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hw-sdn-'));
});
test.after.always(async () => {
  await rm(dir, { recursive: true, force: true });
});

const req = (input: PoolInput, node: string, extra: Record<string, unknown> = {}) => {
  const pool = resolvePool(input);
  return { pool, config: flannelConfig(pool, 'host-gw'), backendType: 'host-gw', node, ...extra };
};

test('allocate, re-run unchanged, check mode writes nothing, release', async (t) => {
  const path = defaultStateFile(join(dir, 'inv1'));
  t.is(path, join(dir, 'inv1', '.hostwire', 'subnets.json'));
  const s = new FileStore(path);
  const net = { network: '10.1.0.0/16' };
  const a = await s.allocate(req(net, 'node1', { publicIp: '192.0.2.11' }));
  t.like(a, { changed: true, action: 'allocated', configCreated: true, lease: { subnet: '10.1.1.0/24', node: 'node1', public_ip: '192.0.2.11' } });
  t.like(await s.allocate(req(net, 'node1', { publicIp: '192.0.2.11' })), { changed: false, action: 'reused' });
  const before = await readFile(path, 'utf8');
  const c = await s.allocate(req(net, 'node2', { check: true }));
  t.like(c, { changed: true, lease: { subnet: '10.1.2.0/24' } });
  t.is(await readFile(path, 'utf8'), before, '--check leaves the file alone');
  t.like(await s.allocate(req(net, 'node1', { publicIp: '192.0.2.99' })), { changed: true, action: 'updated', lease: { subnet: '10.1.1.0/24', public_ip: '192.0.2.99' } });
  const doc = JSON.parse(await readFile(path, 'utf8'));
  t.deepEqual(doc.config, { Network: '10.1.0.0/16', SubnetLen: 24, Backend: { Type: 'host-gw' } });
  t.is(doc.version, 1);
  t.like(await s.release({ node: 'node1' }), { changed: true, released: [{ subnet: '10.1.1.0/24' }], leases: [] });
  t.like(await s.release({ node: 'node1' }), { changed: false });
});

test('a different network or subnet length is refused with an explanation', async (t) => {
  const s = new FileStore(join(dir, 'inv2', 'subnets.json'));
  await s.allocate(req({ network: '10.1.0.0/16', subnetLen: 24 }, 'n1'));
  await t.throwsAsync(s.allocate(req({ network: '10.2.0.0/16', subnetLen: 25 }, 'n2')), {
    message: /refusing to change the network config in state file .*subnets\.json: Network is 10\.1\.0\.0\/16, the task asks for 10\.2\.0\.0\/16; SubnetLen is 24, the task asks for 25\. hostwire never changes/,
  });
  await t.throwsAsync(s.allocate(req({ network: '10.1.0.0/16', subnetLen: 24, style: 'openshift' }, 'n2')), { message: /style is flannel, the task asks for openshift/ });
});

test('a corrupt state file names the file and what was expected', async (t) => {
  const path = join(dir, 'bad.json');
  await writeFile(path, '{"leases": 3}');
  await t.throwsAsync(new FileStore(path).load(), { message: `${path}: expected an object with a "leases" list` });
  await writeFile(path, 'nope');
  await t.throwsAsync(new FileStore(path).list(), { message: /bad\.json: not valid JSON/ });
});

test('a lock left by a dead process is taken over; a live one is waited for', async (t) => {
  const lock = join(dir, 'x.lock');
  await writeFile(lock, `999999999 ${(await import('node:os')).hostname()}\n`);
  t.is(await withLock(lock, async () => 'ran'), 'ran');
  await writeFile(lock, `${process.pid} ${(await import('node:os')).hostname()}\n`);
  await t.throwsAsync(withLock(lock, async () => 'never', 300), { message: /locked by \d+ .*waited 0 s/ });
  await rm(lock);
});

test('two processes racing on one state file never share a subnet', async (t) => {
  const path = join(dir, 'race', 'subnets.json');
  const worker = fileURLToPath(new URL('./race-worker.js', import.meta.url));
  const [a, b] = await Promise.all(['a', 'b'].map((tag) => run(process.execPath, [worker, path, tag, '15'])));
  const got = [...JSON.parse(a.stdout), ...JSON.parse(b.stdout)] as string[];
  t.is(got.length, 30);
  t.is(new Set(got).size, 30, 'all distinct');
  const doc = JSON.parse(await readFile(path, 'utf8'));
  t.is(doc.leases.length, 30, 'no write was lost');
});
