import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { tempPathFor } from '../../src/transports/write-script.js';
import { LocalTransport } from '../../src/transports/local.js';
import { createTransport } from '../../src/transports/create.js';
import { SshTransport } from '../../src/transports/ssh.js';

test('exec: stdout, stderr, exit code, stdin, timeout', async (t) => {
  const l = new LocalTransport();
  t.deepEqual(await l.exec('echo out; echo err >&2; exit 4'), { stdout: 'out\n', stderr: 'err\n', code: 4 });
  t.is((await l.exec('wc -c', { stdin: Buffer.alloc(3_000_000) })).stdout.trim(), '3000000');
  t.is((await l.exec('sleep 5; echo no', { timeoutMs: 200 })).code, 124);
  t.is((await l.exec('pwd', { cwd: '/tmp' })).stdout, '/tmp\n');
  t.is(l.stats.execs, 4);
});

test('writeFile: atomic replace, mode set or kept, no temp left', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hostwire-local-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const l = new LocalTransport();
  const f = join(dir, 'a.conf');
  await l.writeFile(f, 'one\n', { mode: '0640' });
  t.is(readFileSync(f, 'utf8'), 'one\n');
  t.is(statSync(f).mode & 0o777, 0o640);
  chmodSync(f, 0o600);
  await l.writeFile(f, Buffer.from('two\n'));
  t.is(readFileSync(f, 'utf8'), 'two\n');
  t.is(statSync(f).mode & 0o777, 0o600);
  await l.writeFile(f, 'three\n', { owner: 'nobody' });
  t.is(statSync(f).uid, 65534);
  t.deepEqual(readdirSync(dir), ['a.conf']);
  await t.throwsAsync(l.writeFile(join(dir, 'no/such'), 'x'), { message: /write .*no\/such/ });
  t.deepEqual(readdirSync(dir), ['a.conf']);
});

test('writeFile: temps a killed write left for this file are removed, other files\' kept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hostwire-local-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const f = join(dir, 'a.conf');
  const stale = tempPathFor(f);
  const other = tempPathFor(join(dir, 'a.conf.d'));
  writeFileSync(stale, 'partial');
  writeFileSync(other, 'another');
  await new LocalTransport().writeFile(f, 'new\n');
  t.deepEqual(readdirSync(dir).sort(), ['a.conf', basename(other)].sort());
});

test('createTransport picks ssh or local and validates settings', (t) => {
  t.true(createTransport('l', { host: 'x', connection: 'local' }) instanceof LocalTransport);
  const s = createTransport('n1', { host: '10.0.0.1', user: 'core', proxyJump: { host: 'bastion' } }, { hostKeyChecking: 'accept-new' });
  t.true(s instanceof SshTransport);
  t.like((s as SshTransport).options, { host: '10.0.0.1', port: 22, user: 'core', hostKeyChecking: 'accept-new', proxyJump: { host: 'bastion', port: 22, user: 'core' } });
  t.throws(() => createTransport('x', { host: 'h', hostKeyChecking: 'maybe' as 'off' }), { message: /must be one of strict, accept-new, off/ });
});
