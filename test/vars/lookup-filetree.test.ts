// community.general.filetree (with_filetree): the entries and properties community.general 6.6's lookup
// gave for the same tree (run through ansible-core 2.14's lookup_loader on this machine); timestamps are
// compared with lstat's, the order is os.walk's shape with names sorted (Python's is the file system's).
import test from 'ava';
import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOOKUPS } from '../../src/engine/vars/lookups.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-filetree-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test('filetree walks files/<dir> top-down: directories, then files, then each directory; links not followed', (t) => {
  const tree = path.join(dir, 'files/tree');
  mkdirSync(path.join(tree, 'etc/sub'), { recursive: true });
  mkdirSync(path.join(tree, 'b'));
  writeFileSync(path.join(tree, 'a.txt'), 'a\n');
  writeFileSync(path.join(tree, 'etc/sub/x.conf'), 'x\n');
  writeFileSync(path.join(tree, 'etc/y.conf'), 'y\n');
  chmodSync(path.join(tree, 'etc/y.conf'), 0o600);
  chmodSync(path.join(tree, 'b'), 0o2755);
  symlinkSync('etc', path.join(tree, 'linkdir'));
  symlinkSync('a.txt', path.join(tree, 'alink'));
  const got = LOOKUPS.filetree!(['tree/'], {}, { playbook_dir: dir }) as Record<string, unknown>[];
  const root = `${tree}/`;
  const shape = got.map(({ mtime: _m, ctime: _c, uid: _u, gid: _g, owner: _o, group: _gr, size: _s, ...rest }) => rest);
  t.deepEqual(shape, [
    { root, path: 'b', state: 'directory', mode: '02755' },
    { root, path: 'etc', state: 'directory', mode: '0755' },
    { root, path: 'linkdir', state: 'link', src: 'etc', mode: '0777' },
    { root, path: 'a.txt', state: 'file', src: `${tree}/a.txt`, mode: '0644' },
    { root, path: 'alink', state: 'link', src: 'a.txt', mode: '0777' },
    { root, path: 'etc/sub', state: 'directory', mode: '0755' },
    { root, path: 'etc/y.conf', state: 'file', src: `${tree}/etc/y.conf`, mode: '0600' },
    { root, path: 'etc/sub/x.conf', state: 'file', src: `${tree}/etc/sub/x.conf`, mode: '0644' },
  ]);
  const a = got.find((x) => x.path === 'a.txt')!;
  const st = lstatSync(path.join(tree, 'a.txt'), { bigint: true });
  t.is(a.size, 2);
  t.is(a.uid, Number(st.uid));
  t.is(a.owner, Number(st.uid) === 0 ? 'root' : a.owner);
  t.true(Math.abs((a.mtime as number) - Number(st.mtimeMs) / 1000) < 0.001);
  t.deepEqual(LOOKUPS.filetree!(['missing/'], {}, { playbook_dir: dir }), []);
});
