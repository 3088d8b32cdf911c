// Lazily templated variables: `vm_dir: "{{ base }}/vms"` is rendered when read, against the same view, so
// variables may reference each other in any order. A cycle (a -> b -> a) fails with the chain named.
// The view snapshots its input: build a new one after variables change (set_fact, register).
// Variables `isData` names (registered results, facts, set_fact values: data, see unsafe.ts) are
// returned as they are, never rendered; `!unsafe` values anywhere yield their plain text.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { failureMessage } from './environment.js';
import { isPlainObject } from './py.js';
import { isTemplated, renderDeep, type Vars } from './render.js';
import { TemplateFailure } from './undefined.js';
import { unsafeTextOf } from './unsafe.js';
import { noteDataRead } from './data-reads.js';
import { RAW_VARS } from './concat.js';

/** Whether reading `v` needs a render: a template to evaluate or an `!unsafe` value to unwrap. */
function hasTemplate(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return isTemplated(v);
  if (unsafeTextOf(v) !== undefined) return true;
  if (depth > 50) return false;
  if (Array.isArray(v)) return v.some((x) => hasTemplate(x, depth + 1));
  if (isPlainObject(v)) return Object.values(v).some((x) => hasTemplate(x, depth + 1));
  return false;
}

/** Names from the inventory (a host named `h{{ 7*7 }}`): data wherever they are read, never templates. */
const INVENTORY_NAMES = new Set(['inventory_hostname', 'inventory_hostname_short', 'group_names', 'groups']);

export function templatedVars(vars: Vars, where?: SourceLoc, isData?: (key: string) => boolean): Vars {
  const resolved = new Map<string, unknown>();
  const plain = new Set<string>();
  /** Keys whose value is data (see data-reads.ts: a condition never evaluates text built from them). */
  const dataKeys = new Set<string>();
  const resolving: string[] = [];
  const view: Vars = new Proxy(vars, {
    get(target, key, receiver) {
      if (key === RAW_VARS) return target;
      if (typeof key !== 'string') return Reflect.get(target, key, receiver) as unknown;
      const raw = target[key];
      if (dataKeys.has(key)) {
        noteDataRead(raw);
        return raw;
      }
      if (plain.has(key)) return raw;
      if (resolved.has(key)) return resolved.get(key);
      if (INVENTORY_NAMES.has(key) || isData?.(key)) {
        dataKeys.add(key);
        noteDataRead(raw);
        return raw;
      }
      if (!hasTemplate(raw)) {
        plain.add(key);
        return raw;
      }
      if (resolving.includes(key)) {
        const cycle = [...resolving.slice(resolving.indexOf(key)), key].join(' -> ');
        throw new BadInputError(`recursive loop detected in template: ${cycle}`, where);
      }
      resolving.push(key);
      try {
        const value = renderDeep(raw, view);
        resolved.set(key, value);
        return value;
      } catch (e) {
        // BadInputErrors (an inner variable, a cycle) already say where; add only the innermost name.
        if (e instanceof TemplateFailure) throw new BadInputError(`${failureMessage(e, '')} (in variable '${key}')`, where, e);
        throw e;
      } finally {
        resolving.pop();
      }
    },
  });
  return view;
}
