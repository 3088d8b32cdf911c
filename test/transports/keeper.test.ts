// hostwire's connection keeper (ansible.cfg ssh_args ControlPersist), against a real sshd on loopback:
// two transports - as two runs - share one SSH connection through it; exit codes, stderr, stdin and a
// kept command (the run lock's kind) pass through unchanged; a keeper that vanished mid-run leaves the
// run on a direct connection; it ends by itself once idle, or by pid (what `lab down` does); it is not
// used from a directory others could enter.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeeperClient } from '../../src/transports/keeper/client.js';
import { keeperFor } from '../../src/transports/keeper/index.js';
import { keeperSocket, pidFileOf, stopKeeperOf } from '../../src/transports/keeper/paths.js';
import { persistSeconds } from '../../src/config/settings.js';
import { startSshd, type SshdFixture } from './sshd-fixture.js';
import { sshTo } from './helpers.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const cacheHome = mkdtempSync(path.join(tmpdir(), 'hw-keeper-'));
process.env.XDG_CACHE_HOME = cacheHome;
const dir = path.join(cacheHome, 'hostwire', 'keeper');
let sshd: SshdFixture | undefined;

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const keeperPid = (sock: string) => (existsSync(pidFileOf(sock)) ? Number(readFileSync(pidFileOf(sock), 'utf8')) : undefined);
async function until(what: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (what()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return what();
}

test.before(async () => {
  sshd = await startSshd();
});

test.after.always(async () => {
  const sock = keeperSocket(dir);
  const pid = sock ? keeperPid(sock) : undefined;
  if (pid && alive(pid)) process.kill(pid, 'SIGTERM');
  await sshd?.stop();
  rmSync(cacheHome, { recursive: true, force: true });
});

const client = (persist: number) => new KeeperClient(keeperSocket(dir)!, persist, [process.execPath, CLI]);
/** The client's source port as sshd saw it: one connection, one port. */
const sourcePort = async (t: ReturnType<typeof sshTo>) => (await t.exec('echo "$SSH_CONNECTION"')).stdout.split(' ')[1];

test.serial('two runs share one kept connection; output, stderr, stdin and exit codes pass through', async (t) => {
  t.true(keeperFor(30) !== undefined, 'a private directory: the keeper is used');
  const keeper = client(30);
  const first = sshTo(sshd!, { keeper });
  t.teardown(() => first.close());
  await first.connect();
  const port = await sourcePort(first);
  t.deepEqual(await first.exec('cat; echo err >&2; exit 3', { stdin: 'in\n' }), { stdout: 'in\n', stderr: 'err\n', code: 3 });
  await first.close();

  const second = sshTo(sshd!, { keeper: client(30) });
  t.teardown(() => second.close());
  t.is(await sourcePort(second), port, 'the second run reuses the first one\'s connection');
  t.truthy(second.hostKey, 'the host key comes back for the same-machine check');
  // A kept command, as the run lock and the fallback worker hold one: talk, then end it from here.
  const run = await second.start('while read l; do echo "got $l"; done');
  const got = new Promise<string>((resolve) => run.stdout.once('data', (d: Buffer) => resolve(d.toString())));
  run.stdin.write('x\n');
  t.is(await got, 'got x\n');
  run.kill();
  await run.done;
  t.is((await second.exec('echo still')).stdout, 'still\n', 'ending one command leaves the connection');
});

test.serial('a keeper gone mid-run: the run goes on, and what lived on the old connection is taken again', async (t) => {
  const keeper = client(30);
  const tr = sshTo(sshd!, { keeper });
  t.teardown(() => tr.close());
  const kept = await sourcePort(tr);
  let relocked = 0;
  tr.onReconnect(() => { relocked++; });
  // Held as the run lock is: it ends with the keeper's connection.
  const held = await tr.start('cat');
  const pid = keeperPid(keeper.socketPath)!;
  process.kill(pid, 'SIGTERM');
  t.true(await until(() => !alive(pid), 5000));
  await held.done;
  const now = await sourcePort(tr);
  t.truthy(now);
  t.not(now, kept, 'a new connection');
  t.is(relocked, 1, 'the reconnect listeners (the run lock) ran once');
});

test.serial('an idle keeper ends by itself and removes its socket; stopKeeperOf ends one by pid', async (t) => {
  const running = keeperPid(keeperSocket(dir)!);
  if (running) stopKeeperOf('/proc/self/ns/net', dir);
  t.true(await until(() => !existsSync(keeperSocket(dir)!), 5000), 'the earlier tests\' keeper ended');
  const keeper = client(1);
  const tr = sshTo(sshd!, { keeper });
  await tr.exec('true');
  const pid = keeperPid(keeper.socketPath)!;
  t.true(alive(pid));
  await tr.close();
  t.true(await until(() => !alive(pid) && !existsSync(keeper.socketPath) && !existsSync(pidFileOf(keeper.socketPath)), 8000));

  const again = sshTo(sshd!, { keeper: client(30) });
  await again.exec('true');
  await again.close();
  const pid2 = keeperPid(keeper.socketPath)!;
  t.is(stopKeeperOf('/proc/self/ns/net', dir), pid2);
  t.true(await until(() => !alive(pid2), 5000));
});

test.serial('a kept connection that went silent (host gone) is checked and replaced, not lent', async (t) => {
  const first = sshTo(sshd!, { keeper: client(30) });
  const before = await sourcePort(first);
  await first.close();
  // Freeze sshd's side of the kept connection: it looks open but answers nothing, as after a reboot.
  const frozen = sshd!.sessionPids();
  t.true(frozen.length > 0);
  for (const pid of frozen) process.kill(pid, 'SIGSTOP');
  t.teardown(() => { for (const pid of frozen) { try { process.kill(pid, 'SIGKILL'); process.kill(pid, 'SIGCONT'); } catch { /* gone */ } } });
  await new Promise((r) => setTimeout(r, 5500));
  const second = sshTo(sshd!, { keeper: client(30) });
  t.teardown(() => second.close());
  const started = Date.now();
  const after = await sourcePort(second);
  t.not(after, before, 'a new connection');
  t.true(Date.now() - started < 10_000, `checked within the probe's 3 s, not the 15 s channel timeout (${Date.now() - started} ms)`);
});

test.serial('no keeper from a directory others can enter', (t) => {
  const other = mkdtempSync(path.join(tmpdir(), 'hw-keeper-open-'));
  t.teardown(() => rmSync(other, { recursive: true, force: true }));
  mkdirSync(path.join(other, 'hostwire', 'keeper'), { recursive: true });
  chmodSync(path.join(other, 'hostwire', 'keeper'), 0o777);
  const before = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = other;
  try {
    t.is(keeperFor(45), undefined);
  } finally {
    process.env.XDG_CACHE_HOME = before;
  }
});

test('ssh_args: ControlPersist with ControlMaster auto keeps connections; anything else does not', (t) => {
  t.is(persistSeconds('-o ControlMaster=auto -o ControlPersist=60s -o PreferredAuthentications=publickey'), 60);
  t.is(persistSeconds('-C -o ControlMaster=auto -o ControlPersist=10m'), 600);
  t.is(persistSeconds('-o "ControlMaster auto" -o "ControlPersist 30"'), 30);
  t.is(persistSeconds('-o ControlMaster=auto -o ControlPersist=yes'), 3600, 'forever is an hour here');
  t.is(persistSeconds('-o ControlPersist=60s'), 0, 'no master: nothing kept');
  t.is(persistSeconds('-o ControlMaster=auto -o ControlPersist=no'), 0);
  t.is(persistSeconds('-o ControlMaster=auto -o ControlPersist=soon'), undefined, 'refused: not a time');
});
