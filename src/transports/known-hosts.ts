// Pure known_hosts parsing and matching (OpenSSH format, see sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"):
// plain and hashed (|1|salt|hmac-sha1) host patterns, [host]:port for non-22 ports, wildcards,
// negation, @revoked and @cert-authority markers.
import { createHmac } from 'node:crypto';

export interface KnownHostEntry {
  line: number;
  marker?: 'revoked' | 'cert-authority';
  /** Comma-separated patterns, or one |1|salt|hash entry. */
  hosts: string;
  keyType: string;
  /** Base64 of the key blob. */
  key: string;
}

export function parseKnownHosts(text: string): KnownHostEntry[] {
  const out: KnownHostEntry[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const f = line.split(/\s+/);
    let marker: KnownHostEntry['marker'];
    if (f[0] === '@revoked' || f[0] === '@cert-authority') marker = f.shift()!.slice(1) as KnownHostEntry['marker'];
    else if (f[0]!.startsWith('@')) return; // unknown marker: ignored like OpenSSH
    if (f.length < 3) return;
    out.push({ line: i + 1, marker, hosts: f[0]!, keyType: f[1]!, key: f[2]! });
  });
  return out;
}

/** The name OpenSSH looks up: `host` on port 22, `[host]:port` otherwise. */
export function hostKeyName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

const globs = new Map<string, RegExp>();

function globMatch(pattern: string, name: string): boolean {
  // Most entries are plain names: compare them directly (a fleet's known_hosts has one per host).
  if (!/[*?]/.test(pattern)) return pattern.toLowerCase() === name.toLowerCase();
  let re = globs.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
    globs.set(pattern, re);
  }
  return re.test(name);
}

function hashedMatch(entry: string, name: string): boolean {
  const [, magic, salt, hash] = entry.split('|');
  if (magic !== '1' || !salt || !hash) return false;
  const mac = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64');
  return mac === hash;
}

/** Does a host field match `name` (already in `[host]:port` form when needed)? */
export function hostsFieldMatches(hosts: string, name: string): boolean {
  if (hosts.startsWith('|')) return hashedMatch(hosts, name);
  let matched = false;
  for (const p of hosts.split(',')) {
    if (p.startsWith('!')) {
      if (globMatch(p.slice(1), name)) return false;
    } else if (globMatch(p, name)) matched = true;
  }
  return matched;
}

/** Hash a host name the way `ssh-keygen -H` does (for tests and for HashKnownHosts-style appends). */
export function hashHostName(name: string, salt: Buffer): string {
  const mac = createHmac('sha1', salt).update(name).digest('base64');
  return `|1|${salt.toString('base64')}|${mac}`;
}

/** Key type named inside an SSH wire-format public key blob (first length-prefixed string). */
export function keyTypeOfBlob(blob: Buffer): string {
  if (blob.length < 4) return '';
  const len = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + len).toString('latin1');
}

export type HostKeyStatus =
  | { status: 'match'; file: string; line: number }
  | { status: 'revoked'; file: string; line: number }
  | { status: 'changed'; file: string; line: number; knownType: string }
  | { status: 'unknown'; otherTypes: string[] };

export interface KnownHostsSource {
  file: string;
  entries: KnownHostEntry[];
}

// A fleet's known_hosts holds one plain name per host: index those by name so a check does not scan
// every line (500 hosts x 500 lines x 2 lookups was ~0.3 s of a run). Hashed, glob and negated
// fields stay in a list that is always scanned; candidates come back in file order.
interface EntryIndex {
  byName: Map<string, KnownHostEntry[]>;
  others: KnownHostEntry[];
}
const indexes = new WeakMap<KnownHostEntry[], EntryIndex>();

function indexOf(entries: KnownHostEntry[]): EntryIndex {
  let ix = indexes.get(entries);
  if (ix) return ix;
  ix = { byName: new Map(), others: [] };
  for (const e of entries) {
    if (e.marker || /[|*?!]/.test(e.hosts)) {
      ix.others.push(e);
      continue;
    }
    for (const name of new Set(e.hosts.toLowerCase().split(','))) {
      const list = ix.byName.get(name);
      if (list) list.push(e);
      else ix.byName.set(name, [e]);
    }
  }
  indexes.set(entries, ix);
  return ix;
}

/** The entries of a source that may concern `name`, in file order. */
function candidates(entries: KnownHostEntry[], name: string): KnownHostEntry[] {
  const ix = indexOf(entries);
  const named = ix.byName.get(name.toLowerCase()) ?? [];
  if (!ix.others.length) return named;
  if (!named.length) return ix.others;
  return [...named, ...ix.others].sort((a, b) => a.line - b.line);
}

/**
 * Check a presented key against known_hosts sources in order: a revoked key always loses,
 * an exact match wins, a different key of the same type for this host is a change.
 */
export function checkHostKey(sources: KnownHostsSource[], host: string, port: number, blob: Buffer): HostKeyStatus {
  const name = hostKeyName(host, port);
  const type = keyTypeOfBlob(blob);
  const b64 = blob.toString('base64');
  let match: HostKeyStatus | undefined;
  let changed: HostKeyStatus | undefined;
  const otherTypes = new Set<string>();
  for (const { file, entries } of sources) {
    for (const e of candidates(entries, name)) {
      if (e.marker === 'revoked') {
        if (e.key === b64) return { status: 'revoked', file, line: e.line };
        continue;
      }
      if (e.marker === 'cert-authority' || !hostsFieldMatches(e.hosts, name)) continue;
      if (e.keyType === type && e.key === b64) match ??= { status: 'match', file, line: e.line };
      else if (e.keyType === type) changed ??= { status: 'changed', file, line: e.line, knownType: e.keyType };
      else otherTypes.add(e.keyType);
    }
  }
  return match ?? changed ?? { status: 'unknown', otherTypes: [...otherTypes] };
}

/** Key types recorded for a host (OpenSSH prefers these host key algorithms when negotiating). */
export function knownKeyTypes(sources: KnownHostsSource[], host: string, port: number): string[] {
  const name = hostKeyName(host, port);
  const types = new Set<string>();
  for (const { entries } of sources) {
    for (const e of candidates(entries, name)) if (!e.marker && hostsFieldMatches(e.hosts, name)) types.add(e.keyType);
  }
  return [...types];
}

/** The line appended for a newly accepted key. */
export function formatKnownHostLine(host: string, port: number, blob: Buffer): string {
  return `${hostKeyName(host, port)} ${keyTypeOfBlob(blob)} ${blob.toString('base64')}`;
}
