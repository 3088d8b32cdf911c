// ssh2 (under node-ssh) is the largest library a run loads (~40 ms of CPU at every start-up): the engine and the
// transports load it on the first SSH connect, so a run on local hosts and a command that contacts
// no host never pay for it; the SSH connection itself is what it was (a real sshd on loopback).
import test from 'ava';
import { createRequire } from 'node:module';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { sshTo } from './helpers.js';

const require = createRequire(import.meta.url);
const ssh2Loaded = () => Object.keys(require.cache).some((f) => /[/\\]node_modules[/\\]ssh2[/\\]/.test(f));

let sshd: SshdFixture | undefined;
test.after.always(async () => {
  await sshd?.stop();
});

test.serial('the engine and the transports load without ssh2; the first SSH connect loads it and works', async (t) => {
  await import('../../src/engine/runner/run-playbook.js');
  const { createTransport } = await import('../../src/transports/index.js');
  const local = createTransport('here', { host: 'here', connection: 'local' });
  await local.connect();
  t.is((await local.exec('echo local')).stdout, 'local\n');
  await local.close();
  t.false(ssh2Loaded(), 'no ssh2 before an SSH host is contacted');

  sshd = await startSshd();
  const ssh = sshTo(sshd);
  t.teardown(() => ssh.close());
  const r = await ssh.exec('echo over ssh; exit 3');
  t.deepEqual(r, { stdout: 'over ssh\n', stderr: '', code: 3 });
  t.true(ssh2Loaded(), 'ssh2 is loaded by the connect');
  t.true(ssh.connected);
  await ssh.close();
  t.false(ssh.connected, 'close ends the session');
});

test.serial('a refused connection still names the endpoint and why', async (t) => {
  const { SshTransport } = await import('../../src/transports/ssh.js');
  // Port 1 on loopback: nothing listens there.
  const ssh = new SshTransport({ name: 'nobody', host: '127.0.0.1', port: 1, user: 'root', globalKnownHostsFile: '/nonexistent', connectTimeoutMs: 5000 });
  const err = await t.throwsAsync(ssh.connect());
  t.is(err?.message, 'cannot connect to root@127.0.0.1:1: connection refused');
  t.false(ssh.connected);
});
