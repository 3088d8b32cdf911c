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
