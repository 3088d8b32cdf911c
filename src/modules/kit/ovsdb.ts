// OVSDB's JSON as `ovs-vsctl --format=json` prints it, and value quoting for ovs-vsctl's set syntax.
// Shared by the ovs_* modules.
import { z } from 'zod';
import { HostwireError, ProbeParseError } from '../../errors.js';
import type { Section } from '../../probe/sections.js';

export type OvsValue = string | number | boolean | string[] | Record<string, string> | null;

/** ["map",[[k,v]]] -> object, ["set",[...]] -> list (empty set -> null), ["uuid",u] -> u. */
export function ovsValue(v: unknown): OvsValue {
  if (!Array.isArray(v)) return v as string | number | boolean;
  const [tag, body] = v as [string, unknown];
  if (tag === 'map') return Object.fromEntries((body as [unknown, unknown][]).map(([k, x]) => [String(ovsValue(k)), String(ovsValue(x))]));
  if (tag === 'set') {
    const items = (body as unknown[]).map((x) => String(ovsValue(x)));
    return items.length === 0 ? null : items;
  }
  if (tag === 'uuid' || tag === 'named-uuid') return String(body);
  throw new Error(`unknown OVSDB value tag ${tag}`);
}

/** One `--format=json` table (one JSON document per line) -> rows keyed by heading. */
export function parseOvsTable(line: string): Record<string, OvsValue>[] {
  try {
    const doc = JSON.parse(line) as { data: unknown[][]; headings: string[] };
    return doc.data.map((row) => Object.fromEntries(row.map((cell, i) => [doc.headings[i], ovsValue(cell)])));
  } catch (err) {
    throw new ProbeParseError(`cannot parse ovs-vsctl JSON: ${(err as Error).message}`, line, err);
  }
}

/** Every table an ovs-vsctl call printed (one per command, one per line). */
export function parseOvsTables(out: string): Record<string, OvsValue>[][] {
  return out.split('\n').filter((l) => l.trim().startsWith('{')).map(parseOvsTable);
}

/** ovs-vsctl failures (daemon down, no such row) become one clear error. */
export function checkOvs(s: Section, what: string): void {
  if (s.rc === 0) return;
  const msg = s.out.trim();
  if (/database connection failed|No such file or directory|Connection refused/.test(msg)) {
    throw new HostwireError('command-failed', `Open vSwitch is not running (start openvswitch-switch): ${msg}`);
  }
  throw new HostwireError('command-failed', `${what}: ${msg || `ovs-vsctl exited ${s.rc}`}`);
}

/** A string as an OVSDB atom in ovs-vsctl's set syntax: always double-quoted, JSON escapes. */
export const ovsAtom = (s: string | number | boolean) => JSON.stringify(String(s));

/** `col:key="value"` words for `ovs-vsctl set`. */
export function mapAssignments(col: string, map: Record<string, string>): string[] {
  return Object.entries(map).map(([k, v]) => `${col}:${/^[A-Za-z0-9_-]+$/.test(k) ? k : ovsAtom(k)}=${ovsAtom(v)}`);
}

/** Keys of `want` whose value differs in `have`. */
export function mapDiff(have: OvsValue | undefined, want: Record<string, string>): Record<string, string> {
  const cur = have && typeof have === 'object' && !Array.isArray(have) ? have : {};
  return Object.fromEntries(Object.entries(want).filter(([k, v]) => cur[k] !== v));
}

/** Map args accept numbers and booleans; OVSDB stores strings. */
export const stringMap = (m: Record<string, string | number | boolean>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : String(v)]));

export const asMap = (v: OvsValue | undefined): Record<string, string> => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});
export const asList = (v: OvsValue | undefined): string[] => (v === null || v === undefined ? [] : Array.isArray(v) ? v : typeof v === 'object' ? [] : [String(v)]);

export const formatMap = (m: Record<string, string>) => Object.entries(m).sort().map(([k, v]) => `${k}=${v}`).join(',');

/** An other_config / external_ids argument: scalars become the strings OVSDB stores. */
export const ovsMap = z.record(z.union([z.string(), z.number(), z.boolean()])).default({}).transform(stringMap);
