// A script over the shell's one-argument limit (128 KiB on Linux) goes to `sh -s` on stdin; a
// smaller one stays the command line. The run lock's first read never takes such a script.
import test from 'ava';
import { buildHostCommand, fitsCommandLine, MAX_COMMAND_LINE_BYTES } from '../../src/transports/host-command.js';
import { acquireHostLock } from '../../src/transports/lock.js';
import { LocalTransport } from '../../src/transports/local.js';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { sshTo } from './helpers.js';

let sshd: SshdFixture;
test.before(async () => { sshd = await startSshd(); });
test.after.always(async () => { await sshd?.stop(); });

/** A script of about `bytes` bytes that prints how many lines it ran and whether it had a stdin. */
const bigScript = (bytes: number) => {
  const line = `n=$((n+1)) # ${'x'.repeat(60)}\n`;
  return `n=0\n${line.repeat(Math.ceil(bytes / line.length))}read -r hw_in && echo "stdin: $hw_in"; echo "lines $n"`;
};

test('the threshold: up to 64 KiB on the command line, above it on stdin', (t) => {
  t.true(fitsCommandLine('x'.repeat(MAX_COMMAND_LINE_BYTES)));
  t.false(fitsCommandLine('x'.repeat(MAX_COMMAND_LINE_BYTES + 1)));
  t.false(fitsCommandLine('é'.repeat(MAX_COMMAND_LINE_BYTES / 2 + 1)), 'bytes count, not characters');
  const small = buildHostCommand('echo hi');
  t.deepEqual(small, { command: 'echo hi', stdin: undefined });
  const big = buildHostCommand(bigScript(200_000), { timeoutMs: 5000, cwd: '/tmp' });
  t.is(big.command, "timeout -k 2 5.000 /bin/sh -c '/bin/sh -s'");
  t.regex(big.stdin!.toString(), /^\{\ncd \/tmp && n=0\n/);
  const sudo = buildHostCommand(bigScript(200_000), { become: { enabled: true, password: 'pw' } });
  t.is(sudo.command, "sudo -S -p '' -H -u root -- /bin/sh -c '/bin/sh -s'");
  t.true(sudo.stdin!.toString().startsWith('pw\n{\n'), 'the password line comes first, for sudo');
  t.throws(() => buildHostCommand(bigScript(200_000), { stdin: 'data' }), { message: /too long for the host's command line and its stdin is taken/ });
});

test('a 300 KiB script runs over ssh and locally, without reading the caller stdin', async (t) => {
  const script = bigScript(300 * 1024);
  const lines = script.split('\n').length - 2;
  const ssh = sshTo(sshd);
  t.teardown(() => ssh.close());
  for (const transport of [ssh, new LocalTransport()]) {
    const r = await transport.exec(script, { timeoutMs: 60_000 });
    t.is(r.stderr, '', transport.name);
    t.is(r.stdout, `lines ${lines}\n`, transport.name);
    t.is(r.code, 0);
  }
});

test.serial('the lock leaves out a first read too large for its command line', async (t) => {
  const ssh = sshTo(sshd);
  t.teardown(() => ssh.close());
  const path = `${sshd.dir}/lock-big`;
  const big = await acquireHostLock(ssh, { path, then: bigScript(200_000) });
  t.is(big.output, undefined, 'the caller makes that read through exec');
  await big.release();
  const small = await acquireHostLock(ssh, { path, then: 'echo small' });
  t.is(small.output, 'small\n');
  await small.release();
});
