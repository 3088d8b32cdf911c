// Variable precedence: layers from lowest to highest (role defaults ... extra vars). Ansible's default
// hash_behaviour=replace: a dict defined in a later layer replaces the earlier one, it is not merged.
import type { Vars } from './render.js';
import { hasOwn, setOwn } from '../../own-keys.js';

export function mergeVars(...layers: (Vars | undefined)[]): Vars {
  const out: Vars = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const key of Object.keys(layer)) setOwn(out, key, layer[key]);
  }
  return out;
}

/** mergeVars over layers that say whether they hold data (untrusted: never rendered, see unsafe.ts).
 * `isData(key)`: whether the layer that wins for `key` holds data; asked only for values that look
 * like templates, so a task's view costs no more than mergeVars. */
export function mergeTrustedLayers(layers: [Vars | undefined, 'trusted' | 'data'][]): { vars: Vars; isData: (key: string) => boolean } {
  const vars = mergeVars(...layers.map(([layer]) => layer));
  const isData = (key: string): boolean => {
    for (let i = layers.length - 1; i >= 0; i--) {
      const [layer, kind] = layers[i]!;
      if (layer && hasOwn(layer, key)) return kind === 'data';
    }
    return false;
  };
  return { vars, isData };
}
