// Applies the host key checking policy (strict | accept-new | off) on top of the pure matcher,
// producing an ssh2 hostVerifier plus the reason when it refused (ssh2 itself only says "denied").
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  checkHostKey, formatKnownHostLine, hostKeyName, keyTypeOfBlob, knownKeyTypes, parseKnownHosts,
  type KnownHostsSource,
} from './known-hosts.js';

export type HostKeyChecking = 'strict' | 'accept-new' | 'off';

export interface HostKeyPolicyOptions {
  host: string;
  port: number;
  policy?: HostKeyChecking;
  /** Replaces ~/.ssh/known_hosts, like `-o UserKnownHostsFile=`. New keys are appended here. */
  knownHostsFile?: string;
  /** Read-only system file; defaults to /etc/ssh/ssh_known_hosts. */
  globalKnownHostsFile?: string;
}

export interface HostKeyVerifier {
  verify(key: Buffer): boolean;
  /** Why the last verify() refused, in words a user can act on. */
  rejection?: string;
  /** Host key algorithms to offer, known types first (empty = ssh2 defaults). */
  preferredAlgorithms: string[];
}

const ALGOS_BY_TYPE: Record<string, string[]> = {
  'ssh-rsa': ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'],
};
const DEFAULT_ALGOS = [
  'ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa',
];

export function userKnownHostsFile(opts: Pick<HostKeyPolicyOptions, 'knownHostsFile'>): string {
  return opts.knownHostsFile ?? join(homedir(), '.ssh', 'known_hosts');
}

// Parsed once per file version: a run opens one connection per host, all reading the same file.
const parsed = new Map<string, { stamp: string; source: KnownHostsSource }>();

function readSource(file: string): KnownHostsSource | undefined {
  if (!existsSync(file)) return undefined;
  const st = statSync(file);
  const stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
  const hit = parsed.get(file);
  if (hit?.stamp === stamp) return hit.source;
  const source = { file, entries: parseKnownHosts(readFileSync(file, 'utf8')) };
  parsed.set(file, { stamp, source });
  return source;
}

export function createHostKeyVerifier(opts: HostKeyPolicyOptions): HostKeyVerifier {
  const policy = opts.policy ?? 'strict';
  const userFile = userKnownHostsFile(opts);
  const sources = [userFile, opts.globalKnownHostsFile ?? '/etc/ssh/ssh_known_hosts']
    .map(readSource).filter((s): s is KnownHostsSource => !!s);
  const name = hostKeyName(opts.host, opts.port);
  const known = policy === 'off' ? [] : knownKeyTypes(sources, opts.host, opts.port);
  const preferred = known.flatMap((t) => ALGOS_BY_TYPE[t] ?? [t]);
  const v: HostKeyVerifier = {
    preferredAlgorithms: preferred.length ? [...new Set([...preferred, ...DEFAULT_ALGOS])] : [],
    verify(key: Buffer): boolean {
      v.rejection = undefined;
      if (policy === 'off') return true;
      const r = checkHostKey(sources, opts.host, opts.port, key);
      const type = keyTypeOfBlob(key);
      switch (r.status) {
        case 'match':
          return true;
        case 'revoked':
          v.rejection = `host key for ${name} (${type}) is marked as revoked in ${r.file}:${r.line}; refusing to connect`;
          return false;
        case 'changed':
          v.rejection = [
            `REMOTE HOST IDENTIFICATION HAS CHANGED for ${name}: the ${type} host key differs from the one`,
            `recorded in ${r.file}:${r.line}. Someone could be eavesdropping (man-in-the-middle), or the host was`,
            `reinstalled. If the change is expected, remove the old key (ssh-keygen -f ${r.file} -R '${name}') and retry.`,
          ].join('\n');
          return false;
        case 'unknown':
          // As OpenSSH: a host with keys on record must present one of them; accept-new only
          // records the first key of a host, never one of another type (a changed key in disguise).
          if (policy === 'accept-new' && r.otherTypes.length) {
            v.rejection = [
              `host key for ${name} is a ${type} key, but only ${r.otherTypes.join(', ')} key(s) are recorded for it in the`,
              `known_hosts files: refusing it even with accept-new (the host may be impersonated, or was reinstalled).`,
              `If the change is expected, remove the old key (ssh-keygen -f ${userFile} -R '${name}') and retry.`,
            ].join(' ');
            return false;
          }
          if (policy === 'accept-new') {
            mkdirSync(dirname(userFile), { recursive: true, mode: 0o700 });
            appendFileSync(userFile, `${formatKnownHostLine(opts.host, opts.port, key)}\n`, { mode: 0o600 });
            return true;
          }
          v.rejection = [
            `host key for ${name} (${type}) is not known${r.otherTypes.length ? ` (known types: ${r.otherTypes.join(', ')})` : ''}`,
            `and host key checking is strict. Add it with \`ssh-keyscan -p ${opts.port} ${opts.host} >> ${userFile}\``,
            `(after checking its fingerprint), or rerun with --host-key-checking=accept-new.`,
          ].join(' ');
          return false;
      }
    },
  };
  return v;
}
