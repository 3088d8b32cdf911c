// The argument names a module's zod schema accepts at its top level, looking through the wrappers
// modules put around their object (path aliases' preprocess, refine, transform, unions of shapes).
// The module reference (`hostwire doc`) and the test that every argument is documented read them.
import { z, type ZodTypeAny } from 'zod';

export function argNames(schema: ZodTypeAny): string[] {
  const s = unwrap(schema);
  if (s instanceof z.ZodObject) return Object.keys(s.shape as Record<string, unknown>);
  if (s instanceof z.ZodUnion || s instanceof z.ZodDiscriminatedUnion) {
    return [...new Set((s.options as ZodTypeAny[]).flatMap((o) => argNames(o)))];
  }
  if (s instanceof z.ZodIntersection) return [...new Set([...argNames(s._def.left), ...argNames(s._def.right)])];
  return [];
}

function unwrap(schema: ZodTypeAny): ZodTypeAny {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodEffects) s = s.innerType();
    else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s._def.innerType;
    else if (s instanceof z.ZodPipeline) s = s._def.in;
    else if (s instanceof z.ZodLazy) s = s.schema;
    else return s;
  }
}
