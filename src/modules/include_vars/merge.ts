// include_vars' hash_behaviour: merge, as ansible-core 2.14's action applies it: each var it loads is
// combined with the var's value the host has now (combine_vars(old, new, merge=True), utils/vars.py),
// which needs two dictionaries at the top - a var not set yet, or any other value, fails the task with
// merge_hash's AnsibleError. Below the top, dictionaries merge key by key and anything else is replaced
// (list_merge='replace').

type Vars = Record<string, unknown>;
import { getOwn, setOwn } from '../../own-keys.js';

const isDict = (v: unknown): v is Vars => v !== null && typeof v === 'object' && !Array.isArray(v);

/** merge_hash(x, y) below the top: dictionaries key by key, else y. */
function mergeBelow(old: unknown, value: unknown): unknown {
  if (!isDict(old) || !isDict(value)) return value;
  const out: Vars = { ...old };
  for (const [k, v] of Object.entries(value)) setOwn(out, k, mergeBelow(getOwn(old, k), v));
  return out;
}

/**
 * Python's class name of a value, as the error names it: `loaded` values came from a YAML vars file
 * (AnsibleMapping, AnsibleUnicode, AnsibleSequence), others are plain (a `name:` scope is a dict).
 */
function pyClass(v: unknown, loaded: boolean): string {
  if (v === undefined || v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return loaded ? 'AnsibleUnicode' : 'str';
  if (Array.isArray(v)) return loaded ? 'AnsibleSequence' : 'list';
  return loaded ? 'AnsibleMapping' : 'dict';
}

/** Python's json.dumps (", " and ": ", ASCII only) of a var's value, as the error prints it. */
function pyDumps(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(', ')}]`;
  return `{${Object.entries(v as Vars).map(([k, x]) => `${pyDumps(k)}: ${pyDumps(x)}`).join(', ')}}`;
}

/** The vars merged into the host's (`current`), or merge_hash's error text. `named`: results sit under name:. */
export function mergeIntoCurrent(results: Vars, current: Vars, named: boolean): { vars: Vars } | { error: string } {
  const out: Vars = {};
  for (const [k, v] of Object.entries(results)) {
    const old = getOwn(current, k);
    if (!isDict(old) || !isDict(v)) {
      return { error: `failed to combine variables, expected dicts but got a '${pyClass(old, false)}' and a '${pyClass(v, !named)}': \n${pyDumps(old)}\n${pyDumps(v)}` };
    }
    setOwn(out, k, mergeBelow(old, v));
  }
  return { vars: out };
}
