// etcd_key: one key in etcd through etcdctl (API v3) on the host. JSON values (objects, lists) are
// written in a stable form and compared as data; mode create never overwrites an existing key.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { shellJoin, shellQuote } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { need, readSections, requireTool, section } from '../../probe/sections.js';
import { parseGet, sameValue, stableJson } from './parse.js';
import { EtcdUnreachableError, UNREACHABLE_RE } from '../../sdn/store/etcdctl.js';
import { etcdKeyDoc } from './doc.js';

const etcdArgs = z
  .object({
    key: z.string().min(1),
    value: z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.record(z.unknown())]).optional(),
    endpoints: z.union([z.string(), z.array(z.string()).min(1)]).default('http://127.0.0.1:2379').transform((e) => (Array.isArray(e) ? e.join(',') : e)),
    cacert: z.string().optional(),
    cert: z.string().optional(),
    key_file: z.string().optional(),
    mode: z.enum(['exact', 'create']).default('exact'),
    state: z.enum(['present', 'absent']).default('present'),
  })
  .strict()
  .refine((a) => a.state === 'absent' || a.value !== undefined, { message: 'state present needs a value', path: ['value'] })
  .refine((a) => (a.cert === undefined) === (a.key_file === undefined), { message: 'cert and key_file go together', path: ['cert'] });

export type EtcdArgs = z.infer<typeof etcdArgs>;

/** The value as text: objects and lists as stable JSON, scalars as they are. */
export function valueText(v: EtcdArgs['value']): { text: string; json: boolean } {
  if (v !== null && typeof v === 'object') return { text: stableJson(v), json: true };
  return { text: String(v), json: false };
}

export function etcdctl(a: EtcdArgs): string[] {
  return [
    'etcdctl', `--endpoints=${a.endpoints}`, '--dial-timeout=2s', '--command-timeout=5s',
    ...(a.cacert ? [`--cacert=${a.cacert}`] : []), ...(a.cert ? [`--cert=${a.cert}`, `--key=${a.key_file}`] : []),
  ];
}

/** The key's value, or why etcd could not be asked (it did not answer). */
export interface EtcdKeyState {
  value?: string;
  unreachable?: string;
}

export function readEtcd(stdout: string, a: Pick<EtcdArgs, 'endpoints' | 'key'>): EtcdKeyState {
  const s = need(readSections(stdout), 'get', stdout);
  if (s.rc !== 0) {
    if (UNREACHABLE_RE.test(s.out)) return { unreachable: `etcd at ${a.endpoints} is not reachable` };
    throw new HostwireError('command-failed', `etcdctl get ${a.key} failed: ${s.out.trim().split('\n').pop()}`);
  }
  const json = s.out.split('\n').find((l) => l.startsWith('{"header"'));
  return { value: parseGet(json ?? s.out) };
}

/**
 * An etcd that does not answer fails a real run. In check mode it is drift to report (etcd stopped, or
 * not started yet on a fresh cluster): the key is shown as unknown and the run goes on.
 */
function planUnreachable(why: string, a: EtcdArgs, check: boolean): Change[] {
  if (!check) throw new EtcdUnreachableError(`etcdctl get ${a.key} failed: ${why}`);
  const after = a.state === 'absent' ? '(absent)\n' : `${valueText(a.value).text}\n`;
  return [{ summary: `${why}: key ${a.key} cannot be read; ${a.state === 'absent' ? 'it is deleted' : 'it is written'} once etcd answers`, before: '(unknown: etcd is not reachable)\n', after, run: [] }];
}

export function planEtcd(s: EtcdKeyState, a: EtcdArgs, check = false): Change[] {
  if (s.unreachable) return planUnreachable(s.unreachable, a, check);
  const cmd = (words: string[]) => `ETCDCTL_API=3 ${shellJoin([...etcdctl(a), ...words])}`;
  const show = (v?: string) => (v === undefined ? '(absent)\n' : `${v}\n`);
  if (a.state === 'absent') return s.value === undefined ? [] : [{ summary: `delete etcd key ${a.key}`, before: show(s.value), after: show(), run: [cmd(['del', a.key])] }];
  const { text, json } = valueText(a.value);
  if (s.value !== undefined && (a.mode === 'create' || sameValue(s.value, text, json))) return [];
  // The value goes on stdin: a value starting with '-' would otherwise read as an option.
  return [{ summary: `${s.value === undefined ? 'create' : 'update'} etcd key ${a.key}`, before: show(s.value), after: show(text), run: [`printf '%s' ${shellQuote(text)} | ${cmd(['put', a.key])} >/dev/null`] }];
}

export const etcdKeyModule: Module<EtcdArgs, EtcdKeyState> = {
  name: 'etcd_key',
  doc: etcdKeyDoc,
  args: etcdArgs,
  probe: (a) => ({ command: `${requireTool('etcdctl')}; ${section('get', `ETCDCTL_API=3 ${shellJoin([...etcdctl(a), '-w', 'json', 'get', a.key])}`)}`, parse: (o) => readEtcd(o.stdout, a) }),
  plan: (s, a, ctx) => planEtcd(s, a, ctx.check),
};
