// The type of a templated value, as Ansible 2.14 gives it with its default jinja2_native=False
// (ansible/template/native_helpers.py ansible_eval_concat, Templar.template):
// - the output is text: `{{ (x | int) + 120 }}` is "480", `{{ 1.5 }}` is "1.5", `{{ none }}` is "";
// - text that looks like a list, a dict or a bool ("[", "{", "True", "False") is read back with
//   Python's literal_eval (true/false/null read as JSON's): `{{ [1, 2] }}`, `{{ x == 1 }}`, and even
//   `[{{ a }}, 2]` or a registered stdout '["a"]' become a list / a bool;
// - `{{ name }}` alone, naming a variable whose own value is a number or a bool, is that value
//   (Templar's SINGLE_VAR shortcut); one whose value is None is None;
// - a value whose last step is one of STRING_TYPE_FILTERS (to_json, string ...) stays text
//   (NativeJinjaText), under its short name only: `| ansible.builtin.to_json` is read back too.
// Conditions are not values: they are evaluated as booleans elsewhere.
import { literalEval } from '../inventory/py-literal.js';
import { isPlainObject, pyStr } from './py.js';

/** ansible.cfg [jinja2] dont_type_filters' default (STRING_TYPE_FILTERS). */
export const STRING_TYPE_FILTERS: ReadonlySet<string> = new Set(['string', 'to_json', 'to_nice_json', 'to_yaml', 'to_nice_yaml', 'ppretty', 'json']);

const JSON_NAMES = { true: true, false: false, null: null } as const;

/** The variables under a lazy view (their values before rendering), for the SINGLE_VAR shortcut. */
export const RAW_VARS = Symbol('raw vars');

/** Templar.SINGLE_VAR: `{{ name }}` (Python's `$` also matches before one final newline). */
const SINGLE_VAR = /^\{\{\s*([\p{L}\p{N}_]*)\s*\}\}\n?$/u;

/** The variable a template names alone, or undefined. */
export function singleVarName(src: string): string | undefined {
  return SINGLE_VAR.exec(src)?.[1];
}

/** Templar's shortcut: the raw value of `name` when it is a number, a bool or None, else undefined. */
export function singleVarShortcut(vars: object, name: string): { value: unknown } | undefined {
  const raw = ((vars as Record<symbol, unknown>)[RAW_VARS] ?? vars) as Record<string, unknown>;
  if (!(name in raw)) return undefined;
  const v = raw[name];
  return typeof v === 'number' || typeof v === 'boolean' || v === null ? { value: v } : undefined;
}

/** ansible_eval_concat on the joined text: a list, dict or bool when it looks like one and parses. */
export function fromRenderedText(text: string): unknown {
  if (!(text.startsWith('[') || text.startsWith('{') || text === 'True' || text === 'False')) return text;
  const r = literalEval(text, JSON_NAMES);
  return r ? r.value : text;
}

/** Python's repr of a float: "2.0", "1.5", "1e+16", "1e-05". */
export function pyFloatText(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 16) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  const s = Object.is(n, -0) ? '-0' : String(n);
  return s.includes('.') ? s : `${s}.0`;
}

/** Python's to_text of one node after Ansible's finalize (None prints as nothing). */
export function nodeText(v: unknown, float = false): string {
  if (typeof v === 'number' && (float || !Number.isInteger(v))) return pyFloatText(v);
  return v === null || v === undefined ? '' : pyStr(v);
}

/**
 * ansible_eval_concat of a single node: text, read back when it looks like a list, dict or bool.
 * A list or dict comes back equal from repr + literal_eval, so it is returned as it is; other
 * objects (omit, hostvars) are kept as hostwire's own markers.
 */
export function singleNodeValue(v: unknown, keepText: boolean, float = false): unknown {
  if (typeof v === 'string') return keepText ? v : fromRenderedText(v);
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return nodeText(v, float);
  if (Array.isArray(v) || isPlainObject(v)) return v;
  return v;
}
