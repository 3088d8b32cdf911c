// The payload ansible-core gathers for fallback modules (the controller's real ansible-core): the
// module and the module_utils it imports, deterministic (same content, same sha256), and kept on
// the controller with the stamps of its sources so an unchanged later run skips ansible-core.
import test from 'ava';
import { mkdtempSync, rmSync, statSync, utimesSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findAnsibleCore } from '../../src/fallback/ansible-core.js';
import { buildPayload } from '../../src/fallback/payload.js';
import { readCachedPayload } from '../../src/fallback/payload-cache.js';

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
