// The type checks of Ansible's ArgumentSpecValidator (module_utils/common/validation.py, ansible-core
// 2.14) for the types a role's argument_specs uses, with its messages. A value converts as Ansible's
// check_type_* converts it; what cannot is an error naming the Python type it had.

const BOOLEANS_TRUE = ['y', 'yes', 'on', '1', 'true', 't', 1, 1.0, true];
const BOOLEANS_FALSE = ['n', 'no', 'off', '0', 'false', 'f', 0, 0.0, false];

/** Python's type() of a YAML/JSON value, as Ansible's messages print it. */
export function pyType(v: unknown): string {
  if (v === null || v === undefined) return "<class 'NoneType'>";
  if (typeof v === 'boolean') return "<class 'bool'>";
  if (typeof v === 'number') return Number.isInteger(v) ? "<class 'int'>" : "<class 'float'>";
  if (typeof v === 'string') return "<class 'str'>";
  if (Array.isArray(v)) return "<class 'list'>";
  return "<class 'dict'>";
}

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function toBool(v: unknown): boolean {
  const w = typeof v === 'string' ? v.toLowerCase() : v;
  if (BOOLEANS_TRUE.includes(w as never)) return true;
  if (BOOLEANS_FALSE.includes(w as never)) return false;
  // Python prints its frozenset in hash order; this is one such order, recorded from ansible-core 2.14.
  throw new Error(`The value '${String(v)}' is not a valid boolean.  Valid booleans include: 0, 1, '0', 'no', 'true', 'yes', 'n', 'off', 'on', 'f', '1', 'false', 'y', 't'`);
}

function toInt(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v);
  throw new Error(`${pyType(v)} cannot be converted to an int`);
}

function toFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new Error(`${pyType(v)} cannot be converted to a float`);
}

function toList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return v.split(',');
  if (typeof v === 'number') return [String(v)];
  throw new Error(`${pyType(v)} cannot be converted to a list`);
}

function toDict(v: unknown): Record<string, unknown> {
  if (isDict(v)) return v;
  if (typeof v === 'string') {
    if (v.trim().startsWith('{')) {
      try {
        const parsed = JSON.parse(v) as unknown;
        if (isDict(parsed)) return parsed;
      } catch { /* falls to the error below */ }
    } else if (/^\s*[^=\s]+=/.test(v)) {
      return Object.fromEntries(v.split(/[\s,]+/).filter(Boolean).map((kv) => [kv.split('=')[0]!, kv.slice(kv.indexOf('=') + 1)]));
    }
    throw new Error('dictionary requested, could not parse JSON or key=value');
  }
  throw new Error(`${pyType(v)} cannot be converted to a dict`);
}

const CONVERTERS: Record<string, (v: unknown) => unknown> = {
  str: (v) => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)),
  path: (v) => String(v),
  raw: (v) => v,
  bool: toBool,
  int: toInt,
  float: toFloat,
  list: toList,
  dict: toDict,
  jsonarg: (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
  json: (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
  bytes: (v) => v,
  bits: (v) => v,
};

export const KNOWN_TYPES = Object.keys(CONVERTERS);

/** The value converted to `type` (str when unset), or throws Ansible's conversion message. */
export function convertTo(type: string | undefined, v: unknown): unknown {
  const conv = CONVERTERS[type ?? 'str'];
  if (!conv) throw new Error(`type '${type}' is not one of ${KNOWN_TYPES.join(', ')}`);
  return conv(v);
}
