// ovs_db: one column (or one key of a map column) of one OVSDB record, like
// `ovs-vsctl set Open_vSwitch . other_config:n-handler-threads=2`; absent removes the key.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { need, readSections } from '../../probe/sections.js';
import { asMap, checkOvs, ovsAtom, parseOvsTables, type OvsValue } from '../kit/ovsdb.js';
import { VSCTL, vsctlRead } from '../../probe/kinds/ovs-rows.js';
import { ovsDbDoc } from './doc.js';

/** OVSDB's identifiers (RFC 7047 <id>): a table or column name never carries ovs-vsctl syntax (`:`, `=`, `,`). */
const ovsId = (what: string) => z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, `expected an OVSDB ${what} name (letters, digits, '_')`);

const ovsDbArgs = z
  .object({
    table: ovsId('table').default('Open_vSwitch'),
    record: z.string().min(1).default('.'),
    col: ovsId('column'),
    key: z.string().min(1).optional(),
    value: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
    state: z.enum(['present', 'absent']).default('present'),
  })
  .strict()
  .refine((a) => a.state === 'absent' || a.value !== undefined, { message: 'state present needs a value', path: ['value'] });

export type OvsDbArgs = z.infer<typeof ovsDbArgs>;

/** The current value (undefined: key not set / column empty). */
export interface DbState {
  value?: string;
}

export function readDb(stdout: string, a: Pick<OvsDbArgs, 'table' | 'record' | 'col' | 'key'>): DbState {
  const s = need(readSections(stdout), 'db', stdout);
  if (s.rc !== 0 && /no row/.test(s.out)) throw new HostwireError('command-failed', `ovs_db: no record '${a.record}' in table ${a.table} (${s.out.trim()})`);
  checkOvs(s, `ovs-vsctl list ${a.table} ${a.record}`);
  const row = parseOvsTables(s.out)[0]?.[0];
  const v: OvsValue | undefined = row?.[a.col];
  if (a.key !== undefined) return { value: asMap(v)[a.key] };
  if (v === null || v === undefined) return {};
  return { value: Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v) };
}

export function planDb(s: DbState, a: OvsDbArgs): Change[] {
  const vsctl = VSCTL.split(' ');
  const where = `${a.table} ${a.record} ${a.col}${a.key !== undefined ? `:${a.key}` : ''}`;
  const show = (v?: string) => (v === undefined ? '(unset)\n' : `${v}\n`);
  if (a.state === 'absent') {
    if (s.value === undefined) return [];
    // `remove` reads its value as a set of keys: `k1,k2` unquoted would remove k1 and k2.
    const words = a.key !== undefined ? ['remove', a.table, a.record, a.col, ovsAtom(a.key)] : ['clear', a.table, a.record, a.col];
    return [{ summary: `unset ${where}`, before: show(s.value), after: show(), run: [shellJoin([...vsctl, ...words])] }];
  }
  if (s.value === a.value) return [];
  const target = a.key !== undefined ? `${a.col}:${/^[A-Za-z0-9_-]+$/.test(a.key) ? a.key : ovsAtom(a.key)}` : a.col;
  return [{ summary: `set ${where}=${a.value}`, before: show(s.value), after: show(a.value), run: [shellJoin([...vsctl, 'set', a.table, a.record, `${target}=${a.key === undefined && /^[A-Za-z0-9_.-]+$/.test(a.value!) ? a.value! : ovsAtom(a.value!)}`])] }];
}

export const ovsDbModule: Module<OvsDbArgs, DbState> = {
  name: 'ovs_db',
  doc: ovsDbDoc,
  args: ovsDbArgs,
  probe: (a) => ({
    ...vsctlRead({ section: 'db', commands: [[`--columns=${a.col}`, 'list', a.table, a.record]] }),
    parse: (o) => readDb(o.stdout, a),
  }),
  plan: (s, a) => planDb(s, a),
};

/** Whether the read column is a map (openvswitch_db needs a key for one). */
export function columnIsMap(stdout: string, col: string): boolean {
  const v = parseOvsTables(need(readSections(stdout), 'db', stdout).out)[0]?.[0]?.[col];
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}
