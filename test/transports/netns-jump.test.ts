import test from 'ava';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TransportError } from '../../src/errors.js';
import { insideNetns } from '../../src/transports/netns-relay.js';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { sshTo } from './helpers.js';

const ns = `hwt-${randomBytes(3).toString('hex')}`;
let inNs: SshdFixture | undefined;
let plain: SshdFixture | undefined;
test.before(async () => {
  execFileSync('ip', ['netns', 'add', ns]);
  execFileSync('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
  inNs = await startSshd({ netns: ns });
  plain = await startSshd();
});
test.after.always(async () => {
  await inNs?.stop();
  await plain?.stop();
  try { execFileSync('ip', ['netns', 'del', ns]); } catch { /* not created */ }
});

test('connects to a host inside a network namespace through a relay', async (t) => {
  const tr = sshTo(inNs!, { netns: ns });
  t.teardown(() => tr.close());
  const remoteNs = (await tr.exec('readlink /proc/self/ns/net')).stdout.trim();
  t.not(remoteNs, readlinkSync('/proc/self/ns/net'), 'the host runs in another netns');
  t.is(remoteNs, execFileSync('ip', ['netns', 'exec', ns, 'readlink', '/proc/self/ns/net'], { encoding: 'utf8' }).trim());
  const rs = await Promise.all([1, 2, 3].map((n) => tr.exec(`echo ${n}`)));
  t.deepEqual(rs.map((r) => r.stdout), ['1\n', '2\n', '3\n']);
  t.is(tr.stats.connects, 1);
  const relay = (tr as unknown as { relay: { child: { pid: number } } }).relay.child.pid;
  await tr.close();
  await new Promise((r) => setTimeout(r, 200));
  t.throws(() => process.kill(relay, 0), undefined, 'relay process is gone after close');
});

test('insideNetns: true only when the named namespace is this process\'s own', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hwt-netns-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  symlinkSync('/proc/self/ns/net', path.join(dir, 'mine'));
  writeFileSync(path.join(dir, 'other'), '');
  t.true(insideNetns('mine', dir));
  t.false(insideNetns('other', dir));
  t.false(insideNetns('missing', dir));
  t.false(insideNetns('../mine', dir), 'not a namespace name');
  t.false(insideNetns(ns), 'this test process is not in the fixture namespace');
});

test('a process already inside the namespace reaches the host there without a relay', (t) => {
  // As the bench runs hostwire (and ansible-playbook): `ip netns exec NS ...` with the lab's inventory.
  const ssh = new URL('../../src/transports/ssh.js', import.meta.url).href;
  const script = `
    import { SshTransport } from ${JSON.stringify(ssh)};
    const tr = new SshTransport({ name: 'fixture', host: '127.0.0.1', port: ${inNs!.port}, user: 'root', netns: ${JSON.stringify(ns)},
      privateKeyFile: ${JSON.stringify(inNs!.keyFile)}, knownHostsFile: ${JSON.stringify(inNs!.knownHostsFile)}, globalKnownHostsFile: '/nonexistent' });
    const r = await tr.exec('readlink /proc/self/ns/net');
    console.log(JSON.stringify({ remote: r.stdout.trim(), relay: tr.relay !== undefined }));
    await tr.close();`;
  const out = JSON.parse(execFileSync('ip', ['netns', 'exec', ns, process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 })) as { remote: string; relay: boolean };
  t.is(out.remote, execFileSync('ip', ['netns', 'exec', ns, 'readlink', '/proc/self/ns/net'], { encoding: 'utf8' }).trim());
  t.false(out.relay);
});

test('without the netns the same address is not reachable', async (t) => {
  // 127.0.0.1:<port> of the namespaced sshd is (almost surely) closed in our own namespace.
  const e = await t.throwsAsync(sshTo(inNs!, { connectTimeoutMs: 2000 }).connect(), { instanceOf: TransportError });
  t.regex(e!.message, /connection refused|timed out|authentication|not known/);
});

test('a dead port inside the netns names the relay reason', async (t) => {
  const e = await t.throwsAsync(sshTo(inNs!, { netns: ns, port: 1 }).connect(), { instanceOf: TransportError });
  t.regex(e!.message, new RegExp(`127\\.0\\.0\\.1:1: .*ECONNREFUSED.*in netns ${ns}`));
});

test('ProxyJump: through a bastion to the target', async (t) => {
  const tr = sshTo(plain!, { proxyJump: { host: '127.0.0.1', port: plain!.port, user: 'root' } });
  t.teardown(() => tr.close());
  t.is((await tr.exec('echo $SSH_CONNECTION')).stdout.split(' ')[2], '127.0.0.1');
  t.is(tr.stats.connects, 1);
  // One sshd child per connection under the listener: the bastion hop and the target.
  const conns = execFileSync('ps', ['-o', 'pid=', '--ppid', String(plain!.pid)], { encoding: 'utf8' }).trim().split(/\s+/);
  t.is(conns.length, 2);
});
