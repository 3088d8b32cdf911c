import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { TransportError } from '../../src/errors.js';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { sshTo } from './helpers.js';

let sshd: SshdFixture;
test.before(async () => { sshd = await startSshd(); });
test.after.always(async () => { await sshd?.stop(); });

const otherKey = () => readFileSync(new URL('../../../test/transports/fixtures/k1.pub', import.meta.url), 'utf8').split(' ').slice(0, 2).join(' ');
let n = 0;
const khFile = (content: string) => {
  const f = `${sshd.dir}/kh-${n++}`;
  writeFileSync(f, content);
  return f;
};
const hostLine = () => `[127.0.0.1]:${sshd.port} ${sshd.hostKeyPub.split(' ').slice(0, 2).join(' ')}\n`;

test('the recorded key is accepted (strict)', async (t) => {
  const tr = sshTo(sshd, { knownHostsFile: khFile(`# comment\n${hostLine()}`) });
  t.teardown(() => tr.close());
  t.is((await tr.exec('echo ok')).stdout, 'ok\n');
});

test('an unknown host is refused with advice', async (t) => {
  const tr = sshTo(sshd, { knownHostsFile: khFile('') });
  const e = await t.throwsAsync(tr.connect(), { instanceOf: TransportError });
  t.regex(e!.message, new RegExp(`\\[127\\.0\\.0\\.1\\]:${sshd.port} \\(ssh-ed25519\\) is not known`));
  t.regex(e!.message, /--host-key-checking=accept-new/);
});

test('a changed key is refused naming file and line, even with accept-new', async (t) => {
  const f = khFile(`# first line\n[127.0.0.1]:${sshd.port} ${otherKey()}\n`);
  for (const policy of ['strict', 'accept-new'] as const) {
    const e = await t.throwsAsync(sshTo(sshd, { knownHostsFile: f, hostKeyChecking: policy }).connect(), { instanceOf: TransportError });
    t.regex(e!.message, /REMOTE HOST IDENTIFICATION HAS CHANGED/);
    t.true(e!.message.includes(`${f}:2`));
  }
  t.is(readFileSync(f, 'utf8').split('\n').length, 3, 'nothing appended');
  const off = sshTo(sshd, { knownHostsFile: f, hostKeyChecking: 'off' });
  t.teardown(() => off.close());
  t.is((await off.exec('echo off')).stdout, 'off\n');
});

test('accept-new appends the key, then strict accepts it', async (t) => {
  const f = khFile('');
  const tr = sshTo(sshd, { knownHostsFile: f, hostKeyChecking: 'accept-new' });
  await tr.connect();
  await tr.close();
  t.is(readFileSync(f, 'utf8'), hostLine());
  // OpenSSH's own lookup agrees with what we wrote.
  t.regex(execFileSync('ssh-keygen', ['-F', `[127.0.0.1]:${sshd.port}`, '-f', f], { encoding: 'utf8' }), /found: line 1/);
  const again = sshTo(sshd, { knownHostsFile: f });
  t.teardown(() => again.close());
  await t.notThrowsAsync(again.connect());
});

test('hashed entries (ssh-keygen -H) match', async (t) => {
  const f = khFile(`other.example.com ${otherKey()}\n${hostLine()}`);
  execFileSync('ssh-keygen', ['-H', '-f', f], { stdio: 'ignore' });
  t.false(readFileSync(f, 'utf8').includes('127.0.0.1'));
  const tr = sshTo(sshd, { knownHostsFile: f });
  t.teardown(() => tr.close());
  await t.notThrowsAsync(tr.connect());
});

test('a revoked key is refused', async (t) => {
  const f = khFile(`${hostLine()}@revoked * ${sshd.hostKeyPub.split(' ').slice(0, 2).join(' ')}\n`);
  const e = await t.throwsAsync(sshTo(sshd, { knownHostsFile: f }).connect(), { instanceOf: TransportError });
  t.regex(e!.message, /revoked/);
  t.true(e!.message.includes(`${f}:2`));
});

test('accept-new refuses a key of another type for a host with a recorded key, and appends nothing', async (t) => {
  // The host serves RSA; an ed25519 key is on record for it (OpenSSH refuses this too).
  const rsa = await startSshd({ hostKeyType: 'rsa' });
  t.teardown(() => rsa.stop());
  const f = khFile(`[127.0.0.1]:${rsa.port} ${otherKey()}\n`);
  const before = readFileSync(f, 'utf8');
  const e = await t.throwsAsync(sshTo(rsa, { knownHostsFile: f, hostKeyChecking: 'accept-new' }).connect(), { instanceOf: TransportError });
  t.regex(e!.message, /is a ssh-rsa key, but only ssh-ed25519 key\(s\) are recorded/);
  t.is(readFileSync(f, 'utf8'), before, 'nothing appended');
  // A host with nothing on record is still accepted and recorded.
  const fresh = khFile('');
  const ok = sshTo(rsa, { knownHostsFile: fresh, hostKeyChecking: 'accept-new' });
  t.teardown(() => ok.close());
  await ok.connect();
  t.regex(readFileSync(fresh, 'utf8'), /ssh-rsa/);
});
