// Pure side of the etcd store: the etcdctl (API v3) command lines, the `etcdctl txn` stdin text, and
// parsers for `etcdctl -w json` output. The schema is flannel's (pkg/subnet/etcd/registry.go):
// `<prefix>/config` holds the network config, `<prefix>/subnets/10.1.15.0-24` a lease whose value is
// {"PublicIP": ..., "BackendType": ...}. A lease is created in a transaction guarded by
// `ver(key) = "0"`, as flannel's createSubnet does (etcd.Compare(etcd.Version(key), "=", 0)).
import { HostwireError, ProbeParseError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import { formatCidr } from '../cidr.js';
import { parseSubnetKey } from '../flannel.js';
import type { FlannelConfigJson } from '../pool.js';
import type { Lease } from './types.js';

export interface EtcdConn {
  endpoints: string[];
  cacert?: string;
  cert?: string;
  key?: string;
}

export const DEFAULT_PREFIX = '/coreos.com/network';

export function etcdctlWords(c: EtcdConn): string[] {
  return [
    'etcdctl', `--endpoints=${c.endpoints.join(',')}`, '--dial-timeout=2s', '--command-timeout=5s',
    ...(c.cacert ? [`--cacert=${c.cacert}`] : []), ...(c.cert ? [`--cert=${c.cert}`, `--key=${c.key}`] : []),
  ];
}

/** A shell snippet that prints `::missing etcdctl` or runs the command with stderr folded in, then `::rc N`. */
function wrapped(c: EtcdConn, words: string[]): string {
  return `if ! command -v etcdctl >/dev/null 2>&1; then echo '::missing etcdctl'; else { ETCDCTL_API=3 ${shellJoin([...etcdctlWords(c), ...words])} ; } 2>&1; echo "::rc $?"; fi`;
}

const norm = (prefix: string) => prefix.replace(/\/+$/, '');
export const configKey = (prefix: string) => `${norm(prefix)}/config`;
export const leaseKey = (prefix: string, subnetKeyText: string) => `${norm(prefix)}/subnets/${subnetKeyText}`;

/** One read of the config and every lease: `get --prefix <prefix>/` (the slash keeps /coreos.com/network2 out). */
export const readCommand = (c: EtcdConn, prefix: string): string => wrapped(c, ['-w', 'json', 'get', '--prefix', `${norm(prefix)}/`]);

/** The txn command; its compares and operations come on stdin (txnInput). */
export const txnCommand = (c: EtcdConn): string => wrapped(c, ['-w', 'json', 'txn']);

/** `etcdctl lease grant` prints "lease 694da2040610d10b granted with TTL(600s)". */
export const grantCommand = (c: EtcdConn, ttl: number): string => wrapped(c, ['lease', 'grant', String(ttl)]);
export const revokeCommand = (c: EtcdConn, id: string): string => wrapped(c, ['lease', 'revoke', id]);

export interface TxnOp {
  put?: { key: string; value: string; lease?: string; ignoreLease?: boolean };
  del?: string;
}

/** etcdctl's argify() reads Go-quoted strings; a JSON string literal is one. */
const q = (s: string) => JSON.stringify(s);

/** The stdin of `etcdctl txn`: compares, blank line, success ops, blank line, failure ops, blank line. */
export function txnInput(compares: string[], ops: TxnOp[]): string {
  const op = (o: TxnOp) =>
    o.put ? ['put', ...(o.put.lease ? [`--lease=${o.put.lease}`] : []), ...(o.put.ignoreLease ? ['--ignore-lease'] : []), q(o.put.key), q(o.put.value)].join(' ') : `del ${q(o.del!)}`;
  return [...compares, '', ...ops.map(op), '', '', ''].join('\n');
}

export const createIfAbsent = (key: string) => `ver(${q(key)}) = "0"`;
export const unchangedSince = (key: string, modRevision: number) => `mod(${q(key)}) = "${modRevision}"`;

/** etcdctl's words for an etcd that did not answer (stopped, not started yet, partitioned). */
export const UNREACHABLE_RE = /DeadlineExceeded|context deadline exceeded|connection refused|no such host|all SubConns are in TransientFailure/;

/** etcd did not answer: a real run fails with it; check mode reports it as drift and goes on. */
export class EtcdUnreachableError extends HostwireError {
  constructor(message: string, host?: string) {
    super('command-failed', message, { host });
    this.name = 'EtcdUnreachableError';
  }
}

export interface Section {
  out: string;
  rc: number;
}

/** Splits the output of a wrapped command; fails clearly when etcdctl is missing or etcd cannot be reached. */
export function readSection(stdout: string, what: string, c: EtcdConn, host?: string): Section {
  if (/^::missing etcdctl$/m.test(stdout)) {
    throw new HostwireError('command-failed', `etcdctl not found on ${host ?? 'the host'}: install the package etcd-client (RHEL: etcd), or delegate the task to a host that has it`, { host });
  }
  const m = /^::rc (\d+)\s*$/m.exec(stdout);
  if (!m) throw new ProbeParseError(`etcdctl ${what}: output lacks its exit code`, stdout);
  const out = stdout.slice(0, m.index).replace(/\n$/, '');
  const rc = Number(m[1]);
  if (rc !== 0) {
    if (UNREACHABLE_RE.test(out)) throw new EtcdUnreachableError(`etcdctl ${what} failed: etcd at ${c.endpoints.join(',')} is not reachable from ${host ?? 'the host'}`, host);
    throw new HostwireError('command-failed', `etcdctl ${what} failed: ${out.trim().split('\n').pop() ?? `rc ${rc}`}`, { host });
  }
  return { out, rc };
}

interface KvJson { key: string; value?: string; create_revision?: number; mod_revision?: number; version?: number }
export interface RawKv { key: string; value: string; modRevision: number; createRevision: number; leaseId?: string }

/** The JSON document of a -w json command: the line that starts with '{"header"' (warnings are JSON lines too). */
function jsonDoc(out: string, what: string): { text: string; doc: Record<string, unknown> } {
  const line = out.split('\n').find((l) => l.startsWith('{"header"'));
  if (!line) throw new ProbeParseError(`etcdctl ${what}: no JSON response in the output`, out);
  try {
    return { text: line, doc: JSON.parse(line) as Record<string, unknown> };
  } catch (e) {
    throw new ProbeParseError(`etcdctl ${what}: cannot parse its JSON: ${(e as Error).message}`, out, e);
  }
}

/** `etcdctl -w json get`: keys and values are base64. Lease ids exceed 2^53, so they are read from the text. */
export function parseGetJson(out: string): { revision: number; kvs: RawKv[] } {
  const { text, doc } = jsonDoc(out, 'get');
  const kvs = ((doc.kvs as KvJson[] | undefined) ?? []).map((kv) => ({
    key: Buffer.from(kv.key, 'base64').toString('utf8'),
    value: Buffer.from(kv.value ?? '', 'base64').toString('utf8'),
    modRevision: kv.mod_revision ?? 0,
    createRevision: kv.create_revision ?? 0,
  }));
  const leases = new Map<string, string>();
  for (const m of text.matchAll(/"key":"([^"]+)"[^{}]*?"lease":(\d+)/g)) leases.set(Buffer.from(m[1], 'base64').toString('utf8'), BigInt(m[2]).toString(16));
  const header = doc.header as { revision?: number } | undefined;
  return { revision: header?.revision ?? 0, kvs: kvs.map((kv) => ({ ...kv, ...(leases.has(kv.key) ? { leaseId: leases.get(kv.key) } : {}) })) };
}

export interface EtcdState {
  revision: number;
  config?: { value: FlannelConfigJson; modRevision: number; raw: string };
  leases: (Lease & { modRevision: number })[];
  /** Keys under <prefix>/subnets/ whose name or value flannel would not read (ignored, as flannel does). */
  ignored: string[];
}

/** The store's state from one `get --prefix`. */
export function parseEtcdState(out: string, prefix: string): EtcdState {
  const { revision, kvs } = parseGetJson(out);
  const st: EtcdState = { revision, leases: [], ignored: [] };
  const sub = `${norm(prefix)}/subnets/`;
  for (const kv of kvs) {
    if (kv.key === configKey(prefix)) {
      let value: FlannelConfigJson;
      try {
        value = JSON.parse(kv.value) as FlannelConfigJson;
      } catch (e) {
        throw new ProbeParseError(`the flannel config at ${kv.key} is not JSON: ${(e as Error).message}`, kv.value, e);
      }
      st.config = { value, modRevision: kv.modRevision, raw: kv.value };
    } else if (kv.key.startsWith(sub)) {
      const sn = parseSubnetKey(kv.key.slice(sub.length));
      let attrs: { PublicIP?: string; BackendType?: string } | undefined;
      try {
        attrs = JSON.parse(kv.value) as { PublicIP?: string; BackendType?: string };
      } catch {
        attrs = undefined;
      }
      if (!sn || !attrs || typeof attrs !== 'object') {
        st.ignored.push(kv.key);
        continue;
      }
      st.leases.push({
        subnet: formatCidr(sn), key: kv.key, modRevision: kv.modRevision,
        ...(attrs.PublicIP ? { public_ip: attrs.PublicIP } : {}),
        ...(attrs.BackendType ? { backend_type: attrs.BackendType } : {}),
        ...(kv.leaseId ? { etcd_lease: kv.leaseId } : {}),
      });
    }
  }
  return st;
}

/** `etcdctl -w json txn`: true when the compares held (etcd leaves `succeeded` out when false). */
export function parseTxnJson(out: string): boolean {
  return jsonDoc(out, 'txn').doc.succeeded === true;
}

/** The hex lease id from `etcdctl lease grant`. */
export function parseGrant(out: string): string {
  const m = /lease ([0-9a-f]+) granted with TTL\((\d+)s\)/.exec(out);
  if (!m) throw new ProbeParseError('etcdctl lease grant: unexpected output', out);
  return m[1];
}

/** flannel's lease value: {"PublicIP": ..., "BackendType": ...}. */
export function leaseValue(publicIp: string | undefined, backendType: string): string {
  return JSON.stringify({ PublicIP: publicIp ?? '', BackendType: backendType });
}

