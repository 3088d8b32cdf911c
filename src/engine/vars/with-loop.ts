// `with_<lookup>: terms` is `loop: "{{ query('<lookup>', terms) }}"` (TaskExecutor._get_loop_items): the
// terms are templated, then handed to the lookup plugin as its list of terms.
import { LOOKUPS } from './lookups.js';
import { renderValue, type Vars } from './render.js';
import { TemplateFailure } from './undefined.js';

/** with_first_found skips a term whose variables are undefined (Ansible templates its terms with fail=False). */
function renderTerms(lookup: string, terms: unknown, vars: Vars): unknown {
  if (lookup !== 'first_found') return renderValue(terms, vars);
  const leaf = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(leaf);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, leaf(x)]));
    try {
      return renderValue(v, vars);
    } catch {
      return v;
    }
  };
  return leaf(terms);
}

export function withLoopItems(lookup: string, terms: unknown, vars: Vars): unknown[] {
  const impl = LOOKUPS[lookup];
  if (!impl) throw new TemplateFailure(`with_${lookup}: lookup plugin '${lookup}' is not supported (hostwire has ${Object.keys(LOOKUPS).join(', ')})`);
  const rendered = renderTerms(lookup, terms, vars);
  return impl(Array.isArray(rendered) ? rendered : [rendered], {}, vars);
}
