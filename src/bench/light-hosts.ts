// Light hosts for the scale run: N sshd processes (no systemd) in ONE private network namespace,
// each on its own loopback address 127.1.x.y with its own host key, all started by us and killed
// by pid. Files a playbook writes go under /tmp/bench-hosts/<host>/ (bench_root) because the
// hosts share this machine's filesystem; every host's work still goes through its own sshd.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';

export interface LightHosts {
  netns: string;
  dir: string;
  keyFile: string;
  knownHosts: string;
  inventory: string;
  hosts: { name: string; ip: string }[];
  procs: ChildProcess[];
}

export const LIGHT_ROOT = '/tmp/bench-hosts';

const ipOf = (i: number) => `127.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;

function sshdConfig(dir: string, i: number, ip: string): string {
  return [
    `ListenAddress ${ip}:22`,
    `HostKey ${dir}/hostkeys/h${i}`,
    `AuthorizedKeysFile ${dir}/authorized_keys`,
    'PidFile none',
    'UsePAM no',
    'StrictModes no',
    'PermitRootLogin prohibit-password',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    // Hundreds connect at once: the default 10:30:100 would drop most of them.
    'MaxStartups 2000:30:4000',
    'MaxSessions 20',
    'LogLevel ERROR',
    '',
  ].join('\n');
}

async function waitListening(netns: string, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = execFileSync('ip', ['netns', 'exec', netns, 'ss', '-Hltn'], { encoding: 'utf8' }).split('\n').filter((l) => /127\.1\.\d+\.\d+:22\b/.test(l)).length;
    if (n >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${n} of ${count} light sshd listen after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `onStarted` gets the sshd processes as soon as they are spawned, so an interrupted start can be torn down too. */
export async function startLightHosts(count: number, netns: string, dir: string, onStarted?: (procs: LightHosts['procs']) => void): Promise<LightHosts> {
  await stopLightHosts({ netns, dir, procs: [] } as unknown as LightHosts);
  mkdirSync(path.join(dir, 'hostkeys'), { recursive: true });
  mkdirSync(path.join(dir, 'cfg'), { recursive: true });
  execFileSync('ip', ['netns', 'add', netns]);
  execFileSync('ip', ['-n', netns, 'link', 'set', 'lo', 'up']);
  const keyFile = path.join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'hwbench', '-f', keyFile]);
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(`${keyFile}.pub`));
  const hosts: LightHosts['hosts'] = [];
  const known: string[] = [];
  const inv: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < count; i++) {
    const name = `light${i + 1}`;
    const ip = ipOf(i);
    const hk = path.join(dir, 'hostkeys', `h${i}`);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', hk]);
    known.push(`${ip} ${readFileSync(`${hk}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ')}`);
    writeFileSync(path.join(dir, 'cfg', `${name}.conf`), sshdConfig(dir, i, ip));
    hosts.push({ name, ip });
  }
  const knownHosts = path.join(dir, 'known_hosts');
  writeFileSync(knownHosts, known.join('\n') + '\n');
  for (const h of hosts) {
    inv[h.name] = {
      ansible_host: h.ip,
      ansible_user: 'root',
      ansible_ssh_private_key_file: keyFile,
      ansible_ssh_common_args: `-o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes -o IdentitiesOnly=yes`,
      hostwire_netns: netns,
      bench_root: `${LIGHT_ROOT}/${h.name}`,
    };
  }
  const inventory = path.join(dir, 'inventory.yml');
  writeFileSync(inventory, stringify({ all: { hosts: inv } }, { lineWidth: 0 }));
  // Each sshd gets a private mount namespace with an empty tmpfs on /root: sshd runs commands with
  // root's login shell, and bash started by sshd reads ~/.bashrc - this machine's root dotfiles
  // (measured: a pyenv rehash per exec, serialised on its lock) are no part of a light host. Its own
  // /run too: hostwire's run lock lives in /run/hostwire/run.lock, one per host as on real hosts.
  const procs = hosts.map((h) => spawn('ip', ['netns', 'exec', netns, 'unshare', '-m', '--propagation', 'private', 'sh', '-c',
    `mount -t tmpfs -o size=1m hwbench /root && mount -t tmpfs -o size=4m hwbench /run && mkdir -p /run/sshd && chmod 0755 /run/sshd && exec /usr/sbin/sshd -D -f ${path.join(dir, 'cfg', `${h.name}.conf`)}`], { stdio: 'ignore' }));
  for (const p of procs) p.on('error', () => {});
  onStarted?.(procs);
  await waitListening(netns, count, 60_000);
  return { netns, dir, keyFile, knownHosts, inventory, hosts, procs };
}

/** Kill our sshd listeners by pid (their session children end with them), remove the netns and files. */
export async function stopLightHosts(l: Pick<LightHosts, 'netns' | 'dir' | 'procs'>): Promise<void> {
  for (const p of l.procs) if (p.pid && p.exitCode === null) { try { process.kill(p.pid, 'SIGTERM'); } catch { /* gone */ } }
  await Promise.all(l.procs.map((p) => (p.exitCode === null && p.signalCode === null
    ? new Promise((r) => { p.once('exit', r); setTimeout(r, 5000).unref(); })
    : undefined)));
  try { execFileSync('ip', ['netns', 'del', l.netns], { stdio: 'ignore' }); } catch { /* not there */ }
  rmSync(l.dir, { recursive: true, force: true });
  rmSync(LIGHT_ROOT, { recursive: true, force: true });
}
