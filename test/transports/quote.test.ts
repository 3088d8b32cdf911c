import test from 'ava';
import { execFileSync } from 'node:child_process';
import { maskSecrets, shellJoin, shellQuote, withEnvAndCwd, wrapBecome } from '../../src/transports/quote.js';

const sh = (cmd: string) => execFileSync('/bin/sh', ['-c', cmd], { encoding: 'utf8' });

test('quoted words survive /bin/sh unchanged', (t) => {
  const words = ['plain', '', 'two words', "it's", '$HOME', '`id`', 'a\nb', '*', "'\"\\"];
  const out = sh(`printf '%s\\0' ${shellJoin(words)}`);
  t.deepEqual(out.split('\0').slice(0, -1), words);
  t.is(shellQuote('/etc/x.conf'), '/etc/x.conf');
});

test('wrapBecome without a password: sudo -n, command quoted once', (t) => {
  const w = wrapBecome("echo 'hi' $USER", { enabled: true, user: 'ops' });
  t.is(w.command, `sudo -n -H -u ops -- /bin/sh -c 'echo '\\''hi'\\'' $USER'`);
  t.is(w.stdinPrefix, undefined);
  t.deepEqual(wrapBecome('id', { enabled: false }), { command: 'id' });
});

test('wrapBecome with a password keeps it out of the command text', (t) => {
  const w = wrapBecome('id', { enabled: true, password: 's3cr3t' });
  t.is(w.command, `sudo -S -p '' -H -u root -- /bin/sh -c id`);
  t.false(w.command.includes('s3cr3t'));
  t.is(w.stdinPrefix, 's3cr3t\n');
});

test('env and cwd are applied by the shell', (t) => {
  t.is(sh(withEnvAndCwd('echo "$A|$(pwd)"', { A: "x y'z" }, '/tmp')), "x y'z|/tmp\n");
  t.throws(() => withEnvAndCwd('true', { 'A B': '1' }), { message: /invalid environment variable name/ });
});

test('maskSecrets hides every occurrence', (t) => {
  t.is(maskSecrets('pw=hunter2 again hunter2', ['hunter2', undefined]), 'pw=******** again ********');
});
