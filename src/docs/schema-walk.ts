// What a module's zod schema says of each argument, for the module reference (`hostwire doc`):
// its type, whether it is required, its default, its choices and its aliases. It looks through the
// wrappers modules put around their object (aliases' preprocess, refine, transform, unions of shapes)
// as kit/arg-names.ts does, and through each argument's own wrappers to the type underneath.
import { z, type ZodTypeAny } from 'zod';
import { aliasesOf } from '../modules/kit/arg-aliases.js';

export interface ArgInfo {
  name: string;
  /** Ansible-style type words: str, int, float, bool, list of str, dict, path-like unions as `str or int`. */
  type: string;
  required: boolean;
  default?: unknown;
  choices?: unknown[];
  aliases: string[];
}

interface Field { schema: ZodTypeAny; inAll: boolean }

/** The arguments of a module schema, in declaration order. */
export function describeArgs(schema: ZodTypeAny): ArgInfo[] {
  const aliases: Record<string, readonly string[]> = {};
  const fields = topFields(schema, aliases);
  return [...fields].map(([name, f]) => {
    const { required, def } = presence(f.schema);
    const info: ArgInfo = { name, type: typeWords(f.schema), required: required && f.inAll, aliases: [...(aliases[name] ?? [])] };
    if (def !== undefined) info.default = def;
    const choices = choicesOf(f.schema);
    if (choices) info.choices = choices;
    return info;
  });
}

/** The object shape(s) under the wrappers, with the aliases declared on the way down. */
function topFields(schema: ZodTypeAny, aliases: Record<string, readonly string[]>): Map<string, Field> {
  let s = schema;
  for (;;) {
    Object.assign(aliases, aliasesOf(s));
    if (s instanceof z.ZodEffects) s = s.innerType();
    else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s._def.innerType;
    else if (s instanceof z.ZodPipeline) s = s._def.in;
    else if (s instanceof z.ZodLazy) s = s.schema;
    else break;
  }
  if (s instanceof z.ZodObject) {
    return new Map(Object.entries(s.shape as Record<string, ZodTypeAny>).map(([k, v]) => [k, { schema: v, inAll: true }]));
  }
  const parts = s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion ? (s.options as ZodTypeAny[])
    : s instanceof z.ZodIntersection ? [s._def.left, s._def.right] : [];
  const maps = parts.map((p) => topFields(p, aliases));
  const out = new Map<string, Field>();
  for (const m of maps) {
    for (const [k, f] of m) {
      // In a union an argument is required only when every shape requires it.
      const inAll = s instanceof z.ZodIntersection || maps.every((o) => o.get(k)?.inAll);
      if (!out.has(k)) out.set(k, { schema: f.schema, inAll });
    }
  }
  return out;
}

function presence(schema: ZodTypeAny): { required: boolean; def?: unknown } {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodDefault) return { required: false, def: s._def.defaultValue() };
    if (s instanceof z.ZodOptional) return { required: false, def: presence(s._def.innerType).def };
    if (s instanceof z.ZodEffects) s = s.innerType();
    else if (s instanceof z.ZodNullable) s = s._def.innerType;
    else if (s instanceof z.ZodPipeline) s = s._def.in;
    else if (s instanceof z.ZodLazy) s = s.schema;
    else return { required: true };
  }
}

/** The type underneath the wrappers that do not change what is accepted. */
function core(schema: ZodTypeAny): ZodTypeAny {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodEffects) s = s.innerType();
    else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s._def.innerType;
    else if (s instanceof z.ZodBranded) s = s.unwrap();
    else if (s instanceof z.ZodCatch || s instanceof z.ZodReadonly) s = s._def.innerType;
    else if (s instanceof z.ZodPipeline) s = s._def.in;
    else if (s instanceof z.ZodLazy) s = s.schema;
    else return s;
  }
}

function choicesOf(schema: ZodTypeAny): unknown[] | undefined {
  const s = core(schema);
  if (s instanceof z.ZodEnum) return [...(s.options as unknown[])];
  if (s instanceof z.ZodNativeEnum) return Object.values(s.enum as object);
  if (s instanceof z.ZodLiteral) return [s.value];
  if (s instanceof z.ZodUnion) {
    const each = (s.options as ZodTypeAny[]).map(choicesOf);
    return each.every((c) => c !== undefined) ? [...new Set(each.flat())] : undefined;
  }
  return undefined;
}

export function typeWords(schema: ZodTypeAny): string {
  const s = core(schema);
  if (s instanceof z.ZodString || s instanceof z.ZodEnum) return 'str';
  if (s instanceof z.ZodNumber) return s.isInt ? 'int' : 'float';
  if (s instanceof z.ZodBigInt) return 'int';
  if (s instanceof z.ZodBoolean) return 'bool';
  if (s instanceof z.ZodLiteral) return typeof s.value === 'string' ? 'str' : typeof s.value === 'number' ? 'int' : typeof s.value === 'boolean' ? 'bool' : 'null';
  if (s instanceof z.ZodNull) return 'null';
  if (s instanceof z.ZodArray || s instanceof z.ZodSet) {
    const element = typeWords(s instanceof z.ZodArray ? s.element : s._def.valueType);
    return `list of ${element.includes(' or ') ? `(${element})` : element}`;
  }
  if (s instanceof z.ZodTuple) return 'list';
  if (s instanceof z.ZodObject || s instanceof z.ZodRecord || s instanceof z.ZodMap) return 'dict';
  if (s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion) {
    // Nested unions flatten: str | (str | int) reads 'str or int' ('list of (a or b)' stays whole).
    const words = (o: ZodTypeAny) => typeWords(o).split(/ or (?![^(]*\))/);
    return [...new Set((s.options as ZodTypeAny[]).flatMap(words))].join(' or ');
  }
  if (s instanceof z.ZodIntersection) return typeWords(s._def.left);
  return 'raw';
}
