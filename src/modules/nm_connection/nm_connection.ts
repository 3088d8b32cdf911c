// nm_connection: a NetworkManager profile with the given `setting.property` values, present, absent,
// up or down; `persistent: false` keeps it in memory only (nmcli's `save no` / `modify --temporary`).
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { checkIfname } from '../kit/ifname.js';
import { oneLine } from '../kit/line-text.js';
import { need, readSections, requireTool, section } from '../../probe/sections.js';
import { LIST_FIELDS, parseConnList, parseConnSettings, type ConnSummary } from './parse.js';
import { nmConnectionDoc } from './doc.js';

// NM keyfiles are line-based and nmcli's terse output (our read) is too: no control characters in values.
const text = (what: string) => z.string().superRefine(oneLine(what));
const value = z.union([text('a NetworkManager property value'), z.number(), z.boolean(), z.array(z.union([text('a NetworkManager property value'), z.number()]))]);

const nmArgs = z
  .object({
    conn_name: text('a NetworkManager connection name').pipe(z.string().min(1)),
    type: text('a NetworkManager connection type').pipe(z.string().min(1)).optional(),
    ifname: z.string().superRefine(checkIfname(['*'])).optional(),
    properties: z.record(z.string().regex(/^[a-z0-9-]+\.[a-z0-9-]+$/, 'expected setting.property'), value).default({}),
    state: z.enum(['present', 'absent', 'up', 'down']).default('present'),
    persistent: z.boolean().default(true),
  })
  .strict();

export type NmArgs = z.infer<typeof nmArgs>;

export interface NmState {
  conn?: ConnSummary;
  settings: Record<string, string>;
}

/** A wanted value as nmcli takes it on the command line. */
export function nmValue(v: z.infer<typeof value>): string {
  if (Array.isArray(v)) return v.map(String).join(',');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

/** Compare a wanted value with what nmcli shows: lists as `a, b`, MACs upper-case, yes/no/true/false. */
export function sameValue(have: string | undefined, want: string): boolean {
  const norm = (s: string) => {
    const t = s.trim().toLowerCase();
    if (['true', 'yes', 'on'].includes(t)) return 'yes';
    if (['false', 'no', 'off'].includes(t)) return 'no';
    return t.split(/\s*,\s*/).join(',');
  };
  return norm(have ?? '') === norm(want);
}

export function readNm(stdout: string, name: string): NmState {
  const s = readSections(stdout);
  const list = need(s, 'list', stdout);
  if (list.rc !== 0) throw new HostwireError('command-failed', `nmcli cannot list connections (is NetworkManager running?): ${list.out.trim()}`);
  const conn = parseConnList(list.out).find((c) => c.name === name);
  const show = s.get('show');
  if (!conn || !show || show.rc !== 0) return { conn: undefined, settings: {} };
  return { conn, settings: parseConnSettings(show.out, name) };
}

export function planNm(s: NmState, a: NmArgs): Change[] {
  const nm = ['nmcli', 'connection'];
  const show = (st: NmState | undefined) => (st?.conn ? `${st.conn.name} (${st.conn.type}) ${st.conn.active ? 'active' : 'inactive'}${st.conn.filename.startsWith('/run/') ? ' in-memory' : ''}\n` : 'absent\n');
  if (a.state === 'absent') return s.conn ? [{ summary: `delete connection ${a.conn_name}`, before: show(s), after: 'absent\n', run: [shellJoin([...nm, 'delete', s.conn.uuid])] }] : [];
  const props = Object.entries(a.properties).map(([k, v]) => [k, nmValue(v)] as const);
  const after = `${a.conn_name} (${a.type ?? s.conn?.type}) ${a.state === 'up' ? 'active' : a.state === 'down' ? 'inactive' : s.conn?.active ? 'active' : 'inactive'}${a.persistent ? '' : ' in-memory'}\n${props.map(([k, v]) => `${k}: ${v}`).join('\n')}\n`;
  const changes: Change[] = [];
  if (!s.conn) {
    if (!a.type) throw new HostwireError('bad-input', `nm_connection: connection ${a.conn_name} does not exist and no type was given to create it`);
    changes.push({
      summary: `create ${a.type} connection ${a.conn_name}`,
      before: 'absent\n',
      after,
      run: [shellJoin([...nm, 'add', ...(a.persistent ? [] : ['save', 'no']), 'type', a.type, 'con-name', a.conn_name, 'ifname', a.ifname ?? '*', ...props.flat()])],
    });
  } else {
    if (a.type && s.conn.type !== a.type && !s.conn.type.endsWith(a.type) && s.settings['connection.type'] !== a.type) {
      throw new HostwireError('command-failed', `nm_connection: ${a.conn_name} is a ${s.conn.type} connection, not ${a.type}: delete it first (state: absent)`);
    }
    const diff = props.filter(([k, v]) => !sameValue(s.settings[k], v));
    if (a.ifname && s.settings['connection.interface-name'] !== a.ifname) diff.push(['connection.interface-name', a.ifname]);
    const inMemory = s.conn.filename.startsWith('/run/');
    // Modifying without --temporary writes the profile to disk: that is how an in-memory one is saved.
    if (diff.length || (a.persistent && inMemory)) {
      const words = diff.length ? diff.flat() : ['connection.id', a.conn_name];
      const before = `${show(s)}${diff.map(([k]) => `${k}: ${s.settings[k] ?? ''}`).join('\n')}\n`;
      changes.push({ summary: `modify connection ${a.conn_name}: ${diff.map(([k]) => k).join(', ') || 'save to disk'}`, before, after, run: [shellJoin([...nm, 'modify', ...(a.persistent ? [] : ['--temporary']), s.conn.uuid, ...words])] });
    }
  }
  const active = s.conn?.active ?? false;
  const reup = changes.length > 0 && (a.state === 'up' || (a.state === 'present' && active));
  if ((a.state === 'up' && !active) || reup) changes.push({ summary: `activate ${a.conn_name}`, before: active ? 'active\n' : 'inactive\n', after: 'active\n', run: [shellJoin([...nm, 'up', 'id', a.conn_name])] });
  if (a.state === 'down' && active) changes.push({ summary: `deactivate ${a.conn_name}`, before: 'active\n', after: 'inactive\n', run: [shellJoin([...nm, 'down', 'id', a.conn_name])] });
  return changes;
}

export const nmConnectionModule: Module<NmArgs, NmState> = {
  name: 'nm_connection',
  doc: nmConnectionDoc,
  args: nmArgs,
  probe: (a) => ({
    command: [
      requireTool('nmcli'),
      section('list', `nmcli -t -e yes -f ${LIST_FIELDS} connection show`),
      section('show', shellJoin(['nmcli', '-t', '-e', 'yes', '-m', 'multiline', '-f', 'all', 'connection', 'show', 'id', a.conn_name])),
    ].join('; '),
    parse: (o) => readNm(o.stdout, a.conn_name),
  }),
  plan: (s, a) => planNm(s, a),
};
