// Checks for the `__proto__` tests: a value read from input or from a host holds its keys as its own,
// and no object in it (nor Object.prototype itself) gained inherited properties.
import type { ExecutionContext } from 'ava';

/** Every object reachable from `v` has Object.prototype (or null, or Array.prototype) as its prototype. */
export function assertPlainProtos(t: ExecutionContext, v: unknown, where = '$', seen = new Set<unknown>()): void {
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  const proto = Object.getPrototypeOf(v) as unknown;
  if (Array.isArray(v)) {
    t.is(proto, Array.prototype, `${where}: an array's prototype`);
    v.forEach((x, i) => assertPlainProtos(t, x, `${where}[${i}]`, seen));
    return;
  }
  if (proto !== Object.prototype && proto !== null) {
    // Only plain data is checked: class instances (an Error in a result) keep their classes.
    if (!(v instanceof Error) && !(v instanceof Map) && !(v instanceof Set)) t.fail(`${where}: prototype is not Object.prototype but ${JSON.stringify(proto)}`);
    return;
  }
  for (const k of Object.keys(v)) assertPlainProtos(t, (v as Record<string, unknown>)[k], `${where}.${k}`, seen);
}

/** Object.prototype was not written to (a `[__proto__]` section, `obj.__proto__.x = ...`). */
export function assertCleanObjectPrototype(t: ExecutionContext): void {
  const extra = Object.getOwnPropertyNames(Object.prototype).filter((k) => !BUILTIN.has(k));
  t.deepEqual(extra, [], 'Object.prototype gained no properties');
}

const BUILTIN = new Set(['constructor', '__defineGetter__', '__defineSetter__', 'hasOwnProperty', '__lookupGetter__', '__lookupSetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toString', 'valueOf', '__proto__', 'toLocaleString']);
