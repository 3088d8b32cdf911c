import test from 'ava';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fetchDest } from '../../src/modules/fetch/dest.js';
import { getModule } from '../../src/modules/all.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-fetch-dest-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test("fetch's dest as ansible-core 2.14's action computes it", (t) => {
  t.is(fetchDest({ src: '/etc/hosts', dest: 'out', flat: false, host: 'n1', baseDir: dir }), `${dir}/out/n1/etc/hosts`);
  t.is(fetchDest({ src: 'rel/x', dest: '/abs', flat: false, host: 'n1', baseDir: dir }), '/abs/n1/rel/x');
  t.is(fetchDest({ src: '/etc/hosts', dest: 'o/', flat: true, host: 'n1', baseDir: dir }), `${dir}/o/hosts`);
  t.is(fetchDest({ src: '/etc/hosts', dest: 'one.txt', flat: true, host: 'n1', baseDir: dir }), `${dir}/one.txt`);
  mkdirSync(path.join(dir, 'adir'));
  t.throws(() => fetchDest({ src: '/x', dest: 'adir', flat: true, host: 'n1', baseDir: dir }), { message: /dest is an existing directory, use a trailing slash/ });
});

test('a src whose .. would leave dest/<host> is refused', (t) => {
  t.throws(() => fetchDest({ src: '../../../etc/passwd', dest: 'out', flat: false, host: 'n1', baseDir: dir }), { message: /Detected directory traversal/ });
  t.throws(() => fetchDest({ src: '/..', dest: 'out', flat: false, host: 'n1', baseDir: dir }), { message: /Detected directory traversal/ });
  t.is(fetchDest({ src: '/a/../b', dest: 'out', flat: false, host: 'n1', baseDir: dir }), `${dir}/out/n1/b`);
});

test('fetch arguments and its --check skip as Ansible words it', (t) => {
  const m = getModule('fetch')!;
  t.deepEqual(m.args.parse({ src: '/a', dest: 'b', flat: 'yes' }), { src: '/a', dest: 'b', flat: true, fail_on_missing: true, validate_checksum: true });
  t.false(m.args.safeParse({ src: '/a' }).success);
  t.deepEqual(m.checkSkipped!({}), { changed: false, skipped: true, msg: 'check mode not (yet) supported for this module' });
});
