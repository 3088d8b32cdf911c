// The verified install of every file write, run by a real /bin/sh on the controller: a stream
// cut short (what a killed controller or a dropped connection gives the host) never replaces the
// file, a good one does, and temps never outlive the write.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWriteScript, chownSpec, tempPathFor } from '../../src/transports/write-script.js';

function dir(t: { teardown(f: () => void): void }): string {
  const d = mkdtempSync(join(tmpdir(), 'hw-write-script-'));
  t.teardown(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

const sh = (script: string, stdin: Buffer) => spawnSync('/bin/sh', ['-c', script], { input: stdin, encoding: 'utf8' });

test('a truncated stream (EOF before the end) leaves the old file and no temp', (t) => {
  const d = dir(t);
  const f = join(d, 'big.bin');
  writeFileSync(f, 'old\n');
  const content = Buffer.alloc(200_000, 'x');
  const r = sh(buildWriteScript(f, content, { mode: '0644' }), content.subarray(0, 123_456));
  t.is(r.status, 75);
  t.regex(r.stderr, /incomplete upload of .*big\.bin: 123456 of 200000 bytes arrived; the file was left unchanged/);
  t.is(readFileSync(f, 'utf8'), 'old\n');
  t.deepEqual(readdirSync(d), ['big.bin']);
});

test('the same number of bytes with other content is refused by the sha256 check', (t) => {
  const d = dir(t);
  const f = join(d, 'a.conf');
  writeFileSync(f, 'old\n');
  const r = sh(buildWriteScript(f, 'new!\n'), Buffer.from('evil\n'));
  t.is(r.status, 75);
  t.regex(r.stderr, /does not match its sha256/);
  t.is(readFileSync(f, 'utf8'), 'old\n');
  t.deepEqual(readdirSync(d), ['a.conf']);
});

test('a complete stream installs with the wanted mode; stale temps of that file are removed, others kept', (t) => {
  const d = dir(t);
  const f = join(d, 'a.conf');
  writeFileSync(f, 'old\n');
  const stale = tempPathFor(f);
  writeFileSync(stale, 'partial from a killed write');
  const other = tempPathFor(join(d, 'b.conf'));
  writeFileSync(other, 'another file');
  const r = sh(buildWriteScript(f, 'new\n', { mode: '0640' }), Buffer.from('new\n'));
  t.is(r.status, 0, r.stderr);
  t.is(readFileSync(f, 'utf8'), 'new\n');
  t.is(statSync(f).mode & 0o7777, 0o640);
  t.deepEqual(readdirSync(d).sort(), ['a.conf', other.slice(d.length + 1)].sort());
});

test('the temp file is created 0600 and never through something already at its name', (t) => {
  const d = dir(t);
  const f = join(d, 'a.conf');
  const tmp = tempPathFor(f);
  // Observe the temp's mode from inside the script, just before the checks.
  const probe = buildWriteScript(f, 'x', { mode: '0644' }, tmp).replace('set +C', 'set +C; stat -c %a "$t" >&2');
  const r = sh(probe, Buffer.from('x'));
  t.is(r.status, 0, r.stderr);
  t.is(r.stderr.trim(), '600');
  writeFileSync(tmp, 'planted');
  const again = sh(buildWriteScript(f, 'y', {}, tmp), Buffer.from('y'));
  t.not(again.status, 0);
  t.is(readFileSync(f, 'utf8'), 'x');
});

test('owner/group: names and ids pass, option-like or malformed values are refused', (t) => {
  t.is(chownSpec('root', 'daemon'), 'root:daemon');
  t.is(chownSpec(undefined, '0'), ':0');
  t.is(chownSpec('www-data'), 'www-data');
  t.is(chownSpec('smb$'), 'smb$');
  t.is(chownSpec(), undefined);
  for (const bad of ['--reference=/etc/shadow', '-1', 'a:b', 'a b', 'a/b', '', 'x'.repeat(33), 'ü']) {
    t.throws(() => chownSpec(bad), { message: /invalid owner .*expected a user name/ }, bad);
    t.throws(() => chownSpec('root', bad), { message: /invalid group .*expected a group name/ }, bad);
  }
  t.regex(buildWriteScript('/etc/a', 'x', { owner: 'root', group: '0' }), /\nchown -- '?root:0'? "\$t"\n/);
});
