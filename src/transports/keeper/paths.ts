// Where the connection keeper listens: a unix socket in a directory of our uid nobody else can enter
// (0700, as OpenSSH's ControlPath directories should be): whoever can connect to it runs commands as
// us on every kept host. One keeper per network namespace of the caller: a keeper started inside
// `ip netns exec X` reaches hosts from there, and a run elsewhere must not borrow that reach.
import { lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** $XDG_CACHE_HOME/hostwire/keeper or ~/.cache/hostwire/keeper. */
export function keeperDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'hostwire', 'keeper');
}

/** sun_path holds 108 bytes: a longer socket path cannot be bound, and the keeper is then not used. */
const MAX_SOCKET_PATH = 100;

/** The socket for the network namespace `nsFile` names (default: this process's), or undefined when none can be used safely. */
export function keeperSocket(dir: string, nsFile = '/proc/self/ns/net'): string | undefined {
  let ns: number;
  try {
    ns = statSync(nsFile).ino;
  } catch {
    return undefined;
  }
  const sock = path.join(dir, `netns-${ns}.sock`);
  return sock.length <= MAX_SOCKET_PATH ? sock : undefined;
}

/** The keeper's pid file beside its socket. */
export const pidFileOf = (socketPath: string) => socketPath.replace(/\.sock$/, '.pid');

/**
 * Ends the keeper living in the network namespace `nsFile` (a lab's, before the lab goes): by the pid its
 * file names, only when that process is a keeper of this socket. Returns the pid ended.
 */
export function stopKeeperOf(nsFile: string, dir = keeperDir()): number | undefined {
  const sock = keeperSocket(dir, nsFile);
  if (!sock) return undefined;
  try {
    const pid = Number(readFileSync(pidFileOf(sock), 'utf8').trim());
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (!Number.isInteger(pid) || pid <= 1 || !cmdline.includes('__keeper') || !cmdline.includes(sock)) return undefined;
    process.kill(pid, 'SIGTERM');
    return pid;
  } catch {
    return undefined;
  }
}

/** Makes `dir` (0700) when missing; true only when it and its parent are ours and closed to others. */
export function trustedKeeperDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.geteuid?.();
    const d = lstatSync(dir);
    const parent = lstatSync(path.dirname(dir));
    return d.isDirectory() && d.uid === uid && (d.mode & 0o077) === 0 && parent.uid === uid && (parent.mode & 0o022) === 0;
  } catch {
    return false;
  }
}
