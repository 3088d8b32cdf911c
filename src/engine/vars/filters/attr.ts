// Jinja's attribute getter for map/selectattr/sort(attribute=...): dotted paths, numeric parts index lists.
import { memberLookup } from '../runtime-patch.js';
import { Undef } from '../undefined.js';

export function attrGetter(attribute: string, dflt?: unknown): (x: unknown) => unknown {
  const parts = attribute.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return (x) => {
    let cur: unknown = x;
    let path = '(item)';
    for (const p of parts) {
      cur = memberLookup(cur, p, path);
      path = typeof p === 'number' ? `${path}[${p}]` : `${path}.${p}`;
    }
    return dflt !== undefined && cur instanceof Undef ? dflt : cur;
  };
}
