// Module arguments converted as AnsibleModule converts them before validating (module_utils/common/
// validation.py check_type_int / float / bool / list / str): a templated value arrives as text
// (`"{{ (x | int) + 120 }}"` is "480" in Ansible 2.14), so "480" for an int argument becomes 480,
// "yes" / "true" / "1" for a bool argument becomes true, "a,b" for a list argument becomes [a, b],
// and a number or bool for a text argument becomes its text. The argument's type is read from the
// module's zod schema; a value the schema already accepts as it is stays untouched. A value given under
// an alias (`dest:` for `path`, `content:` for blockinfile's `block`) converts as its argument's, since
// AnsibleModule maps aliases before it checks types.
import { z, type SafeParseReturnType, type ZodTypeAny } from 'zod';
import { aliasesOf } from './arg-aliases.js';
import { setOwn } from '../../own-keys.js';

interface Kinds {
  any: boolean;
  string: boolean;
  number: boolean;
  int: boolean;
  boolean: boolean;
  literals: unknown[];
  array?: ZodTypeAny;
  objects: ZodTypeAny[];
  record?: ZodTypeAny;
  /** Alias -> argument (withAliases, withPathAliases): a value given under an alias converts as its argument's. */
  aliases: Map<string, string>;
}

const BOOL_TRUE = new Set(['y', 'yes', 'on', '1', 'true', 't']);
const BOOL_FALSE = new Set(['n', 'no', 'off', '0', 'false', 'f']);
/** Python int(str): optional sign, digits with single underscores, surrounding whitespace. */
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;
/** Python float(str) for the forms a template prints (no hex, no unicode digits). */
const PY_FLOAT = /^\s*[+-]?(?:(?:\d+(?:_\d+)*)?\.?\d+(?:_\d+)*(?:[eE][+-]?\d+(?:_\d+)*)?|\d+(?:_\d+)*\.|inf(?:inity)?|nan)\s*$/i;

function emptyKinds(): Kinds {
  return { any: false, string: false, number: false, int: false, boolean: false, literals: [], objects: [], aliases: new Map() };
}

/** What a schema accepts, looking through optional/default/effects wrappers and unions. */
function collect(schema: ZodTypeAny, k: Kinds, depth: number): void {
  if (depth > 20) return;
  const s = schema;
  const d = depth + 1;
  for (const [name, names] of Object.entries(aliasesOf(s))) for (const alias of names) if (!k.aliases.has(alias)) k.aliases.set(alias, name);
  if (s instanceof z.ZodEffects) collect(s.innerType(), k, d);
  else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) collect(s._def.innerType, k, d);
  else if (s instanceof z.ZodPipeline) collect(s._def.in, k, d);
  else if (s instanceof z.ZodLazy) collect(s.schema, k, d);
  else if (s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion) for (const o of s.options as ZodTypeAny[]) collect(o, k, d);
  else if (s instanceof z.ZodIntersection) {
    collect(s._def.left, k, d);
    collect(s._def.right, k, d);
  } else if (s instanceof z.ZodString) k.string = true;
  else if (s instanceof z.ZodNumber) {
    k.number = true;
    if (s.isInt) k.int = true;
  } else if (s instanceof z.ZodBoolean) k.boolean = true;
  else if (s instanceof z.ZodLiteral) k.literals.push(s.value);
  else if (s instanceof z.ZodEnum) k.literals.push(...(s.options as unknown[]));
  else if (s instanceof z.ZodArray) k.array ??= s.element;
  else if (s instanceof z.ZodObject) k.objects.push(s);
  else if (s instanceof z.ZodRecord) k.record ??= s.valueSchema;
  else if (s instanceof z.ZodAny || s instanceof z.ZodUnknown) k.any = true;
}

const kindsCache = new WeakMap<ZodTypeAny, Kinds>();

function kindsOf(schema: ZodTypeAny): Kinds {
  let k = kindsCache.get(schema);
  if (!k) {
    k = emptyKinds();
    collect(schema, k, 0);
    kindsCache.set(schema, k);
  }
  return k;
}

/** Ansible's check_type_int / check_type_float on text; undefined when it is not a number. */
function numberFromText(v: string, int: boolean): number | undefined {
  if (PY_INT.test(v)) return Number(v.replace(/_/g, ''));
  if (int || !PY_FLOAT.test(v)) return undefined;
  const t = v.trim().toLowerCase().replace(/_/g, '');
  if (/^[+-]?inf(inity)?$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  return t.endsWith('nan') ? NaN : Number(t);
}

function boolFromText(v: string): boolean | undefined {
  const s = v.trim().toLowerCase();
  return BOOL_TRUE.has(s) ? true : BOOL_FALSE.has(s) ? false : undefined;
}

function fromText(v: string, k: Kinds): unknown {
  if (k.string || k.literals.includes(v)) return v;
  if (k.number) {
    const n = numberFromText(v, k.int);
    if (n !== undefined) return n;
  }
  if (k.boolean) {
    const b = boolFromText(v);
    if (b !== undefined) return b;
  }
  if (k.array) return v.split(',').map((x) => coerce(k.array!, x));
  return v;
}

function fromScalar(v: number | boolean, k: Kinds): unknown {
  if (k.literals.includes(v)) return v;
  if (typeof v === 'number') {
    if (k.number && (!k.int || Number.isInteger(v))) return v;
    if (k.boolean && (v === 0 || v === 1)) return v === 1;
  } else if (k.boolean) return v;
  // check_type_str with conversion allowed: Python's str() of the value.
  if (k.string) return typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v);
  if (k.array) return [typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v)];
  return v;
}

function fieldSchema(k: Kinds, key: string): ZodTypeAny | undefined {
  for (const name of [key, k.aliases.get(key)]) {
    if (name === undefined) continue;
    for (const o of k.objects) {
      const shape = (o as z.AnyZodObject).shape as Record<string, ZodTypeAny>;
      if (Object.prototype.hasOwnProperty.call(shape, name)) return shape[name];
    }
  }
  return k.record;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `value` converted where the schema's type asks for it, as Ansible's argument spec does. */
export function coerce(schema: ZodTypeAny, value: unknown): unknown {
  const k = kindsOf(schema);
  if (k.any) return value;
  if (typeof value === 'string') return fromText(value, k);
  if (typeof value === 'number' || typeof value === 'boolean') return fromScalar(value, k);
  if (Array.isArray(value)) return k.array ? value.map((x) => coerce(k.array!, x)) : value;
  if (isPlainObject(value) && (k.objects.length > 0 || k.record)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const field = fieldSchema(k, key);
      setOwn(out, key === '__proto__' ? PROTO_STANDIN : key, field ? coerce(field, v) : v);
    }
    return out;
  }
  return value;
}

// zod silently drops a key `__proto__` where it builds objects (its guard against prototype pollution);
// in Ansible it is an ordinary key (set_fact: {__proto__: 1}). Such a key passes the check under this
// stand-in and gets its name back after; one zod dropped all the same is refused, never lost.
const PROTO_STANDIN = '\u0000__proto__';

/** How many own `__proto__` keys a value holds, and where the first one is. */
function protoKeys(v: unknown, path: string[] = [], found: { n: number; at?: string[] } = { n: 0 }, depth = 0): { n: number; at?: string[] } {
  if (depth > 100 || v === null || typeof v !== 'object') return found;
  if (Array.isArray(v)) v.forEach((x, i) => protoKeys(x, [...path, String(i)], found, depth + 1));
  else if (isPlainObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (k === '__proto__' || k === PROTO_STANDIN) {
        found.n++;
        found.at ??= path;
      }
      protoKeys(x, [...path, k === PROTO_STANDIN ? '__proto__' : k], found, depth + 1);
    }
  }
  return found;
}

/** The parsed args with each stand-in key renamed back to `__proto__`, in place and in order. */
function restoreProtoKeys(v: unknown, depth = 0): void {
  if (depth > 100 || v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) return v.forEach((x) => restoreProtoKeys(x, depth + 1));
  if (!isPlainObject(v)) return;
  const entries = Object.entries(v);
  if (entries.some(([k]) => k === PROTO_STANDIN)) {
    for (const [k] of entries) delete v[k];
    for (const [k, x] of entries) setOwn(v, k === PROTO_STANDIN ? '__proto__' : k, x);
  }
  for (const x of Object.values(v)) restoreProtoKeys(x, depth + 1);
}

/** Validate a module's arguments after converting them as Ansible would. */
export function parseModuleArgs<T extends ZodTypeAny>(schema: T, raw: unknown): SafeParseReturnType<unknown, z.output<T>> {
  const r = schema.safeParse(coerce(schema, raw)) as SafeParseReturnType<unknown, z.output<T>>;
  const real = (k: string | number) => (k === PROTO_STANDIN ? '__proto__' : k);
  if (!r.success) {
    for (const i of r.error.issues) {
      i.path = i.path.map(real);
      if (i.code === 'unrecognized_keys') i.keys = i.keys.map((k) => String(real(k)));
    }
    return r;
  }
  const given = protoKeys(raw);
  if (given.n === 0) return r;
  restoreProtoKeys(r.data);
  if (protoKeys(r.data).n === given.n) return r;
  const message = `a key '__proto__' (under ${given.at!.join('.') || 'the arguments'}) cannot be kept by this module's argument check; rename it`;
  return { success: false, error: new z.ZodError([{ code: 'custom', path: given.at!, message }]) } as SafeParseReturnType<unknown, z.output<T>>;
}
