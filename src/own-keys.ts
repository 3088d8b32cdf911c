// Keys that come from input (YAML, INI, -e, templates) or from a managed host (module results, facts,
// parsed files) are data. In Ansible they live in Python dicts, where `__proto__` or `constructor` is an
// ordinary key. In JS, `obj[key] = v` and Object.assign with the key `__proto__` instead set obj's
// prototype (the key vanishes and its fields are inherited: a result could gain `failed`), and `key in
// obj` / `obj[key]` see Object.prototype's members. Everything that copies or probes such keys goes
// through these helpers. (JSON.parse, object spread and Object.fromEntries already define own keys.)

/** Sets `obj[key] = value` as an own, enumerable property, also for `__proto__`. */
export function setOwn<T extends object>(obj: T, key: string, value: unknown): T {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else (obj as Record<string, unknown>)[key] = value;
  return obj;
}

/** Object.assign that keeps every key of the sources as an own property of target (and its symbols). */
export function assignOwn<T extends object>(target: T, ...sources: unknown[]): T {
  for (const src of sources) {
    if (src === null || typeof src !== 'object') continue;
    for (const k of Reflect.ownKeys(src)) {
      if (!Object.prototype.propertyIsEnumerable.call(src, k)) continue;
      const v = (src as Record<string | symbol, unknown>)[k];
      if (typeof k === 'string') setOwn(target, k, v);
      else (target as Record<symbol, unknown>)[k] = v;
    }
  }
  return target;
}

/** Whether `key` is obj's own key (Python's `key in dict`), never an inherited member such as `constructor`. */
export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** obj's own value for `key`, or undefined (never Object.prototype's `constructor`, `__proto__`, ...). */
export function getOwn(obj: object, key: string): unknown {
  return hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** `obj[key] ??= make()` on own keys only: a host's `[__proto__]` section must not hand out Object.prototype. */
export function ownOrSet<V>(obj: Record<string, V>, key: string, make: () => V): V {
  if (!hasOwn(obj, key) || obj[key] === undefined || obj[key] === null) setOwn(obj, key, make());
  return obj[key]!;
}
