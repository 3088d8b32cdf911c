// Starts a throw-away OpenSSH sshd on 127.0.0.1 (optionally inside a network namespace) with its
// own config, host key and authorized client key in a temp dir; stop() kills it and its
// per-connection children by pid and removes the dir. Used by transport and facts tests.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SshdFixture {
  port: number;
  /** Client private key authorized for root. */
  keyFile: string;
  /** known_hosts file holding this server's host key for [127.0.0.1]:port. */
  knownHostsFile: string;
  /** Public host key line: "ssh-ed25519 AAAA... comment". */
  hostKeyPub: string;
  dir: string;
  pid: number;
  /** Pids of the per-connection sshd processes currently alive. */
  sessionPids(): number[];
  stop(): Promise<void>;
}

export interface SshdOptions {
  /** Run sshd inside this (existing) network namespace. */
  netns?: string;
  hostKeyType?: 'ed25519' | 'ecdsa' | 'rsa';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Children (recursively) of a pid, read from /proc. */
export function descendants(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(d)]);
    } catch { /* process gone */ }
  }
  const out: number[] = [];
  const walk = (p: number) => { for (const c of byParent.get(p) ?? []) { out.push(c); walk(c); } };
  walk(pid);
  return out;
}

export async function startSshd(opts: SshdOptions = {}): Promise<SshdFixture> {
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege separation dir
  const dir = mkdtempSync(join(tmpdir(), 'hostwire-sshd-'));
  const type = opts.hostKeyType ?? 'ed25519';
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-f', join(dir, 'host_key'), '-C', 'hostwire-test-host']);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key'), '-C', 'hostwire-test-client']);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')), { mode: 0o600 });
  const port = await freePort();
  const cfg = join(dir, 'sshd_config');
  writeFileSync(cfg, [
    `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${join(dir, 'host_key')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`, 'PermitRootLogin prohibit-password',
    'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'UsePAM no', 'StrictModes no',
    'PidFile none', 'MaxSessions 10', 'LogLevel INFO', 'PrintMotd no', '',
  ].join('\n'));
  const argv = ['/usr/sbin/sshd', '-D', '-e', '-f', cfg];
  const child = opts.netns ? spawn('ip', ['netns', 'exec', opts.netns, ...argv]) : spawn(argv[0]!, argv.slice(1));
  child.stdout.resume();
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sshd did not start:\n${log}`)), 10_000);
    child.stderr.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('Server listening')) { clearTimeout(timer); resolve(); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`sshd exited (${code}):\n${log}`)); });
  });
  const hostKeyPub = readFileSync(join(dir, 'host_key.pub'), 'utf8').trim();
  const [kt, kb] = hostKeyPub.split(/\s+/);
  const knownHostsFile = join(dir, 'known_hosts');
  writeFileSync(knownHostsFile, `[127.0.0.1]:${port} ${kt} ${kb}\n`);
  const pid = child.pid!;
  let stopped = false;
  return {
    port, keyFile: join(dir, 'client_key'), knownHostsFile, hostKeyPub, dir, pid,
    sessionPids: () => descendants(pid),
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const p of [...descendants(pid).reverse(), pid]) {
        try { process.kill(p, 'SIGTERM'); } catch { /* gone */ }
      }
      if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
