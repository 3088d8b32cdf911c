import test from 'ava';
import { randomBytes } from 'node:crypto';
import { TransportError } from '../../src/errors.js';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { cksum, sshTo } from './helpers.js';
import type { SshTransport } from '../../src/transports/ssh.js';

let sshd: SshdFixture;
let t1: SshTransport;
test.before(async () => {
  sshd = await startSshd();
  t1 = sshTo(sshd);
});
test.after.always(async () => {
  await t1?.close();
  await sshd?.stop();
});

test.serial('exec returns stdout, stderr and the exit code', async (t) => {
  const r = await t1.exec('echo out; echo err >&2; exit 7');
  t.deepEqual(r, { stdout: 'out\n', stderr: 'err\n', code: 7 });
  const k = await t1.exec('kill -TERM $$');
  t.is(k.code, 128 + 15);
  t.like(t1.stats, { connects: 1, execs: 2 });
});

test.serial('env and cwd, and a timeout gives rc 124', async (t) => {
  t.is((await t1.exec('echo "$X" $(pwd)', { env: { X: 'a b' }, cwd: '/tmp' })).stdout, 'a b /tmp\n');
  const start = Date.now();
  t.is((await t1.exec('sleep 5', { timeoutMs: 300 })).code, 124);
  t.true(Date.now() - start < 3000);
});

test.serial('stdin streams a few MB intact', async (t) => {
  const data = randomBytes(4 * 1024 * 1024);
  const before = t1.stats.bytesSent;
  const r = await t1.exec('cksum');
  t.is(r.code, 0);
  const s = await t1.exec('cksum', { stdin: data });
  t.is(s.stdout.trim(), cksum(data));
  t.true(t1.stats.bytesSent - before >= data.length);
});

test.serial('30 parallel execs share one connection, at most 10 channels at a time', async (t) => {
  const start = Date.now();
  const rs = await Promise.all(Array.from({ length: 30 }, (_, n) => t1.exec(`sleep 0.3; echo ${n}`)));
  t.deepEqual(rs.map((r) => r.stdout.trim()), Array.from({ length: 30 }, (_, n) => String(n)));
  t.true(rs.every((r) => r.code === 0));
  t.true(Date.now() - start >= 900, 'three waves of 10 channels');
  t.is(t1.stats.connects, 1);
});

test.serial('writeFile is atomic: content, mode, owner kept, no temp left', async (t) => {
  const dir = (await t1.exec('mktemp -d')).stdout.trim();
  t.teardown(() => t1.exec(`rm -rf ${dir}`));
  const f = `${dir}/conf`;
  await t1.writeFile(f, 'hello\n', { mode: '0640' });
  t.is((await t1.exec(`cat ${f}; stat -c %a ${f}`)).stdout, 'hello\n640\n');
  await t1.exec(`chmod 600 ${f}`);
  await t1.writeFile(f, 'second\n');
  t.is((await t1.exec(`cat ${f}; stat -c %a ${f}`)).stdout, 'second\n600\n', 'mode kept when omitted');
  await t1.writeFile(f, 'owned\n', { owner: 'nobody', group: 'nogroup' });
  t.is((await t1.exec(`stat -c %U:%G ${f}`)).stdout, 'nobody:nogroup\n');
  t.is((await t1.exec(`ls -A ${dir}`)).stdout, 'conf\n');
  const err = await t.throwsAsync(t1.writeFile(`${dir}/missing/x`, 'x'));
  t.regex(err!.message, /write .*missing\/x/);
});

test.serial('a reader never sees a partial file while writes replace it', async (t) => {
  const dir = (await t1.exec('mktemp -d')).stdout.trim();
  t.teardown(() => t1.exec(`rm -rf ${dir}`));
  const f = `${dir}/big`;
  const a = Buffer.alloc(1 << 20, 'a');
  const b = Buffer.alloc(1 << 20, 'b');
  await t1.writeFile(f, a);
  const reader = t1.exec(`for i in $(seq 150); do cksum < ${f}; done`);
  for (let i = 0; i < 8; i++) await t1.writeFile(f, i % 2 ? a : b);
  const seen = new Set((await reader).stdout.trim().split('\n'));
  const ok = new Set([cksum(a), cksum(b)].map((s) => s.replace(/ -$/, '')));
  for (const s of seen) t.true(ok.has(s.trim()), `partial read: ${s}`);
  t.is((await t1.exec(`ls -A ${dir}`)).stdout, 'big\n');
});

test.serial('reconnects once after the server dropped the connection', async (t) => {
  const tr = sshTo(sshd);
  t.teardown(() => tr.close());
  const pid = Number((await tr.exec('echo $PPID')).stdout.trim());
  t.true(sshd.sessionPids().includes(pid));
  process.kill(pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  t.is((await tr.exec('echo back')).stdout, 'back\n');
  t.is(tr.stats.connects, 2);
  // And straight after a drop, before the client noticed it.
  process.kill(Number((await tr.exec('echo $PPID')).stdout.trim()), 'SIGKILL');
  t.is((await tr.exec('echo again')).stdout, 'again\n');
  t.is(tr.stats.connects, 3);
});

test('unreachable port, wrong key and unreadable key file give clear errors', async (t) => {
  const closed = sshTo(sshd, { port: 1, connectTimeoutMs: 2000 });
  const e1 = await t.throwsAsync(closed.exec('true'), { instanceOf: TransportError });
  t.regex(e1!.message, /root@127\.0\.0\.1:1: connection refused/);
  const wrong = sshTo(sshd, { privateKeyFile: `${sshd.dir}/host_key` });
  const e2 = await t.throwsAsync(wrong.connect(), { instanceOf: TransportError });
  t.regex(e2!.message, new RegExp(`127\\.0\\.0\\.1:${sshd.port}: authentication failed`));
  t.false(e2!.message.includes('PRIVATE KEY'));
  const e3 = await t.throwsAsync(sshTo(sshd, { privateKeyFile: '/nonexistent/key' }).connect());
  t.is(e3!.name, 'BadInputError');
  t.regex(e3!.message, /\/nonexistent\/key/);
});

test('a silent server times out', async (t) => {
  const net = await import('node:net');
  const server = net.createServer(() => {}).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const tr = sshTo(sshd, { port, connectTimeoutMs: 500 });
  const e = await t.throwsAsync(tr.connect(), { instanceOf: TransportError });
  t.regex(e!.message, new RegExp(`127\\.0\\.0\\.1:${port}: timed out`));
  server.getConnections(() => {});
  await tr.close();
});

test.serial('authenticates through ssh-agent (SSH_AUTH_SOCK) without a key file', async (t) => {
  const { spawn, execFileSync } = await import('node:child_process');
  const sock = `${sshd.dir}/agent.sock`;
  const agent = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
  const oldSock = process.env.SSH_AUTH_SOCK;
  t.teardown(() => {
    if (oldSock === undefined) delete process.env.SSH_AUTH_SOCK;
    else process.env.SSH_AUTH_SOCK = oldSock;
    process.kill(agent.pid!, 'SIGTERM');
  });
  for (let i = 0; i < 50; i++) {
    try { execFileSync('ssh-add', [sshd.keyFile], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'ignore' }); break; } catch { await new Promise((r) => setTimeout(r, 50)); }
  }
  process.env.SSH_AUTH_SOCK = sock;
  // A key file that exists but is not authorized proves the agent did the work.
  const tr = sshTo(sshd, { privateKeyFile: `${sshd.dir}/host_key` });
  t.teardown(() => tr.close());
  t.is((await tr.exec('echo via-agent')).stdout, 'via-agent\n');
});

test('the channel request waits 15 s, or the host\'s connect timeout (ansible_timeout) when longer', async (t) => {
  const { channelOpenTimeoutMs } = await import('../../src/transports/ssh.js');
  t.is(channelOpenTimeoutMs(), 15_000);
  t.is(channelOpenTimeoutMs(10_000), 15_000);
  t.is(channelOpenTimeoutMs(60_000), 60_000);
});
