// Variable precedence: layers from lowest to highest (role defaults ... extra vars). Ansible's default
// hash_behaviour=replace: a dict defined in a later layer replaces the earlier one, it is not merged.
import type { Vars } from './render.js';

export function mergeVars(...layers: (Vars | undefined)[]): Vars {
  const out: Vars = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const key of Object.keys(layer)) out[key] = layer[key];
  }
  return out;
}

/** mergeVars over layers that say whether they hold data (untrusted: never rendered, see unsafe.ts);
 * `untrusted` names the variables whose winning layer is data. */
export function mergeTrustedLayers(layers: [Vars | undefined, 'trusted' | 'data'][]): { vars: Vars; untrusted: Set<string> } {
  const vars: Vars = {};
  const untrusted = new Set<string>();
  for (const [layer, kind] of layers) {
    if (!layer) continue;
    for (const key of Object.keys(layer)) {
      vars[key] = layer[key];
      if (kind === 'data') untrusted.add(key);
      else untrusted.delete(key);
    }
  }
  return { vars, untrusted };
}
