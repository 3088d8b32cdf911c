// Per-lab client key and per-host identity (host key, hostname, /etc/hosts, authorized_keys), written
// into the host's overlay upper dir before boot, so the lab's known_hosts is right from the first connect.
import { chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { run } from './run.js';
import type { HostState, LabState } from './state.js';
import { writeFileAtomic } from './fs-util.js';

export async function createLabKey(keyFile: string, lab: string): Promise<void> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `hostwire-lab-${lab}`, '-f', keyFile]);
}

/** Writes the host's files into `upper` and returns its known_hosts line. */
export async function writeHostIdentity(state: LabState, host: HostState, upper: string, rootfs: string): Promise<string> {
  await mkdir(`${upper}/etc/ssh`, { recursive: true });
  const hostKey = `${upper}/etc/ssh/ssh_host_ed25519_key`;
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `root@${host.name}`, '-f', hostKey]);
  await writeFile(`${upper}/etc/hostname`, `${host.name}\n`);
  const others = state.hosts.map((h) => `${h.ip}\t${h.name}`).join('\n');
  await writeFile(`${upper}/etc/hosts`, `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n${others}\n`);
  const pub = await readFile(`${state.keyFile}.pub`, 'utf8');
  await writeAuthorizedKeys(`${upper}/root`, pub, 0, 0);
  const user = await lookupUser(rootfs, 'hostwire');
  if (user) await writeAuthorizedKeys(`${upper}/home/hostwire`, pub, user.uid, user.gid, true);
  await copyDirModes(upper, rootfs, ['etc', 'etc/ssh', 'root', 'home', 'home/hostwire']);
  const [type, key] = (await readFile(`${hostKey}.pub`, 'utf8')).trim().split(/\s+/);
  return `${host.ip} ${type} ${key}`;
}

async function writeAuthorizedKeys(home: string, pub: string, uid: number, gid: number, ownHome = false): Promise<void> {
  await mkdir(`${home}/.ssh`, { recursive: true, mode: 0o700 });
  await writeFile(`${home}/.ssh/authorized_keys`, pub, { mode: 0o600 });
  await chmod(`${home}/.ssh`, 0o700);
  if (ownHome) await chown(home, uid, gid);
  await chown(`${home}/.ssh`, uid, gid);
  await chown(`${home}/.ssh/authorized_keys`, uid, gid);
}

/** Dirs made in the upper layer hide the lower dir's mode and owner: copy them over (/root stays 0700). */
async function copyDirModes(upper: string, lower: string, dirs: string[]): Promise<void> {
  for (const d of dirs) {
    const l = await stat(`${lower}/${d}`).catch(() => undefined);
    if (!l || !(await stat(`${upper}/${d}`).catch(() => undefined))) continue;
    await chmod(`${upper}/${d}`, l.mode & 0o7777);
    await chown(`${upper}/${d}`, l.uid, l.gid);
  }
}

async function lookupUser(rootfs: string, name: string): Promise<{ uid: number; gid: number } | undefined> {
  const passwd = await readFile(`${rootfs}/etc/passwd`, 'utf8').catch(() => '');
  const f = passwd.split('\n').find((l) => l.startsWith(`${name}:`))?.split(':');
  return f ? { uid: Number(f[2]), gid: Number(f[3]) } : undefined;
}

export async function writeKnownHosts(file: string, lines: string[]): Promise<void> {
  await writeFileAtomic(file, `${lines.join('\n')}\n`, 0o644);
}
