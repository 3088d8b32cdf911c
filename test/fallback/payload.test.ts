// The payload ansible-core gathers for fallback modules (the controller's real ansible-core): the
// module and the module_utils it imports, deterministic (same content, same sha256), and kept on
// the controller with the stamps of its sources so an unchanged later run skips ansible-core.
import test from 'ava';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findAnsibleCore } from '../../src/fallback/ansible-core.js';
import { buildPayload } from '../../src/fallback/payload.js';
import { PAYLOADS_KEPT, readCachedPayload, writeCachedPayload } from '../../src/fallback/payload-cache.js';

const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-f5-payload-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test('a collection module with its collection module_utils and ansible-core basic; same content, same hash; cached until a source changes', async (t) => {
  const core = findAnsibleCore().core;
  if (!core) return t.fail('ansible-core is needed (scripts/setup.sh installs it)');
  cpSync(path.join(root, 'test/fixtures/fallback/collections'), path.join(dir, 'colls'), { recursive: true });
  const kv = path.join(dir, 'colls/ansible_collections/hwtest/demo/plugins/modules/kv.py');
  const util = path.join(dir, 'colls/ansible_collections/hwtest/demo/plugins/module_utils/kvfile.py');
  const request = { modules: [{ remoteFqn: 'ansible_collections.hwtest.demo.plugins.modules.kv', path: kv }], moduleUtils: [], collections: [path.join(dir, 'colls')] };
  const cacheA = path.join(dir, 'cacheA');
  const a = await buildPayload(core, request, cacheA);
  t.true(a.files.includes('ansible/module_utils/basic.py'));
  t.true(a.files.includes('ansible_collections/hwtest/demo/plugins/module_utils/kvfile.py'));
  t.true(a.files.includes('ansible_collections/hwtest/demo/plugins/modules/kv.py'));
  t.regex(a.hash, /^[0-9a-f]{64}$/);
  const b = await buildPayload(core, request, path.join(dir, 'cacheB'));
  t.is(b.hash, a.hash, 'two builds of the same content give the same bytes');
  t.is(statSync(cacheA).mode & 0o777, 0o700);
  const key = [core.python, core.version, request.modules, request.moduleUtils, request.collections];
  t.is((await readCachedPayload(cacheA, key))?.hash, a.hash, 'kept on the controller');
  const later = new Date(Date.now() + 5000);
  utimesSync(util, later, later);
  t.is(await readCachedPayload(cacheA, key), undefined, 'a changed module_utils file is a cache miss');
});

test('the controller keeps the most recently used payloads only', async (t) => {
  const cache = path.join(dir, 'cacheEvict');
  const zip = Buffer.from('zip');
  const payload = { hash: createHash('sha256').update(zip).digest('hex'), zip, files: ['x.py'] };
  const keys = Array.from({ length: PAYLOADS_KEPT + 3 }, (_, i) => ['key', i]);
  for (const [i, key] of keys.entries()) {
    await writeCachedPayload(cache, key, payload, []);
    // Distinct, increasing use times (writes within one millisecond would tie).
    const f = readdirSync(cache).map((n) => path.join(cache, n)).sort((x, y) => statSync(y).mtimeMs - statSync(x).mtimeMs)[0]!;
    utimesSync(f, 1_000_000 + i, 1_000_000 + i);
  }
  // Reading the oldest kept one marks it used: it outlives the next write.
  t.truthy(await readCachedPayload(cache, keys[3]!));
  await writeCachedPayload(cache, ['key', 'last'], payload, []);
  t.is(readdirSync(cache).length, PAYLOADS_KEPT);
  t.truthy(await readCachedPayload(cache, keys[3]!));
  t.is(await readCachedPayload(cache, keys[0]!), undefined, 'the least recently used went');
  t.is(await readCachedPayload(cache, keys[4]!), undefined);
});
