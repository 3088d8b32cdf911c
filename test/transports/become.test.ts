import test from 'ava';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalTransport } from '../../src/transports/local.js';

// sudo is not installed here: a stand-in with sudo's -S contract (password line first on stdin,
// then the command after --) proves the plumbing: the password travels on stdin only and is masked.
test('become with a password: stdin first line, never in the command, masked in output', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hostwire-sudo-'));
  const oldPath = process.env.PATH;
  t.teardown(() => { process.env.PATH = oldPath; rmSync(dir, { recursive: true, force: true }); });
  writeFileSync(join(dir, 'sudo'), [
    '#!/bin/sh',
    'echo "argv: $*" >> "$(dirname "$0")/argv.log"',
    'IFS= read -r pw',
    '[ "$pw" = "$EXPECTED_PW" ] || { echo "sudo: wrong password $pw" >&2; exit 1; }',
    'while [ "$1" != "--" ]; do shift; done; shift',
    'exec "$@"',
  ].join('\n'));
  chmodSync(join(dir, 'sudo'), 0o755);
  process.env.PATH = `${dir}:${oldPath}`;
  process.env.EXPECTED_PW = 'Tr0ub4dor&3';
  const l = new LocalTransport();
  const become = { enabled: true, password: 'Tr0ub4dor&3' };
  t.deepEqual(await l.exec('cat; echo "[$0]"', { stdin: 'payload\n', become }), { stdout: 'payload\n[/bin/sh]\n', stderr: '', code: 0 });
  const leak = await l.exec('echo "$EXPECTED_PW"', { become });
  t.is(leak.stdout, '********\n');
  const wrong = await l.exec('true', { become: { enabled: true, password: 'nope-wrong' } });
  t.is(wrong.code, 1);
  t.is(wrong.stderr, 'sudo: wrong password ********\n');
  const { readFileSync } = await import('node:fs');
  const argv = readFileSync(join(dir, 'argv.log'), 'utf8');
  t.false(argv.includes('Tr0ub4dor'));
  t.regex(argv, /^argv: -S -p {2}-H -u root -- \/bin\/sh -c/m);
});
