// Large files in copy/template reads: over LARGE_FILE_BYTES the host sends size + sha256 instead of
// the content, merged or alone. Run by a real /bin/sh on real files on the controller.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planContent } from '../../src/modules/kit/content-plan.js';
import { fileReadKind, LARGE_FILE_BYTES, statCommand, type FileRead } from '../../src/probe/kinds/files.js';
import { parseStat } from '../../src/modules/kit/file-stat.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-large-file-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const big = randomBytes(300_000);
const edge = Buffer.alloc(LARGE_FILE_BYTES, 'e');
const other = randomBytes(LARGE_FILE_BYTES + 1);
writeFileSync(join(dir, 'big.bin'), big);
writeFileSync(join(dir, 'edge.txt'), edge);
writeFileSync(join(dir, 'other.bin'), other);
writeFileSync(join(dir, 'small.conf'), 'a=1\n');
symlinkSync(join(dir, 'small.conf'), join(dir, 'link'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sh = (script: string) => execFileSync('/bin/sh', ['-c', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
const p = (name: string) => join(dir, name);

const reads: FileRead[] = [
  { path: p('big.bin'), content: true, digestLarge: true },
  { path: p('edge.txt'), content: true, digestLarge: true },
  { path: p('small.conf'), content: true, digestLarge: true },
  { path: p('link'), content: true, digestLarge: true },
  { path: p('missing'), content: true, digestLarge: true },
  // Read whole by another module (lineinfile): whole for both reads.
  { path: p('other.bin'), content: true, digestLarge: true },
  { path: p('other.bin'), content: true },
  { path: p('small.conf'), content: false },
];

test('merged: large files come back as size + sha256, the rest as content; the same as each read alone', (t) => {
  const out = sh(fileReadKind.script(reads));
  // Only the two files read whole travel as base64: big.bin's 300 KB do not.
  t.true(out.length < ((edge.length + other.length) * 4) / 3 + 4096, `the merged read printed ${out.length} bytes`);
  const split = fileReadKind.split(out, reads);
  t.truthy(split);
  const alone = reads.map((r) => parseStat({ stdout: sh(`${statCommand(r.path, r.content, r.digestLarge)} 2>/dev/null`), rc: 0 }));
  // other.bin is read whole for the lineinfile-like read, so the merge gives its content to both reads.
  reads.forEach((r, i) => i !== 5 && t.deepEqual(parseStat({ stdout: split![i], rc: 0 }), alone[i], r.path));
  t.deepEqual(alone[5].digest, { size: other.length, sha256: sha(other) });
  const st = split!.map((o) => parseStat({ stdout: o, rc: 0 }));
  t.deepEqual(st[0].digest, { size: big.length, sha256: sha(big) });
  t.is(st[0].content, undefined);
  t.deepEqual(st[1].content, edge, 'exactly LARGE_FILE_BYTES is still read whole');
  t.is(st[2].content!.toString(), 'a=1\n');
  t.like(st[3], { type: 'link', content: undefined, digest: undefined });
  t.false(st[4].exists);
  t.deepEqual(st[5].content, other);
  t.deepEqual(st[6].content, other);
});

test('merged: a digest section that does not match the sizes stat printed is not trusted', (t) => {
  const out = sh(fileReadKind.script(reads));
  const at = out.indexOf(`${p('big.bin')}\0${sha(big)}`);
  t.true(at > 0);
  const end = out.indexOf('\0', at + p('big.bin').length + 1) + 1;
  t.truthy(fileReadKind.split(out, reads));
  // Drop the record (a file that shrank between the reads would do this) or corrupt its hash.
  t.is(fileReadKind.split(out.slice(0, at) + out.slice(end), reads), undefined);
  t.is(fileReadKind.split(out.replace(sha(big), 'x'.repeat(64)), reads), undefined);
});

test('plan: equal digest is a no-op; a difference names both sides by size and sha256 in --diff', (t) => {
  const st = parseStat({ stdout: sh(statCommand(p('big.bin'), true, true)), rc: 0 });
  t.deepEqual(planContent(st, { path: '/x', content: big, skipLargeDiff: true }), []);
  const next = randomBytes(200_000);
  const [c] = planContent(st, { path: '/x', content: next, skipLargeDiff: true });
  t.is(c.before, `diff skipped: destination file size is greater than ${LARGE_FILE_BYTES} (300000 bytes, sha256 ${sha(big)})\n`);
  t.is(c.after, `diff skipped: source file size is greater than ${LARGE_FILE_BYTES} (200000 bytes, sha256 ${sha(next)})\n`);
  t.deepEqual(c.write?.content, next);
  const [small] = planContent(st, { path: '/x', content: 'tiny\n', skipLargeDiff: true });
  t.is(small.after, 'tiny\n');
});
