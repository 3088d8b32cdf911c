// `module_defaults:` (play, block, role entry, task) as ansible-core 2.14 reads it (playbook/base.py
// _load_module_defaults; executor/module_common.py get_action_args_with_defaults): a mapping, or a
// list of them, from a static action name to its default arguments (the values may be templates).
// A task's levels are merged outermost first and a later level replaces an earlier one's entry for
// the same action whole (dict.update); the task's own arguments win over every default.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { keyLoc } from './keyword-types.js';
import { locOf } from '../yaml-source.js';

/** One level's defaults: canonical action name -> arguments (a mapping, or a template of one). */
export type ModuleDefaults = Record<string, unknown>;

const SHAPE = "'module_defaults' must be a mapping or a list of mappings, the keys of which are static action, module or group names; only the values may contain templates, e.g. {ping: \"{{ ping_defaults }}\"}";

// ansible.builtin's action groups (config/ansible_builtin_runtime.yml) only extend groups of other
// collections (amazon.aws.aws, kubernetes.core.k8s ...), none of whose modules hostwire runs natively.
const BUILTIN_GROUPS = new Set(['aws', 'acme', 'azure', 'cpm', 'docker', 'gcp', 'k8s', 'os', 'ovirt', 'vmware']);

/**
 * The action a name stands for: as Ansible resolves a short name through ansible.legacy to
 * ansible.builtin, `file`, `ansible.builtin.file` and `ansible.legacy.file` are one action.
 */
export function canonicalAction(name: string): string {
  const m = /^ansible\.(?:builtin|legacy)\.([^.]+)$/.exec(name);
  return m ? m[1]! : name;
}

/** The keyword's levels as written on one play, block, role entry or task (undefined when absent). */
export function moduleDefaultsKeyword(obj: Record<string, unknown>, fallback: SourceLoc): ModuleDefaults[] | undefined {
  const v = obj.module_defaults;
  if (v === undefined || v === null) return undefined;
  const at = keyLoc(obj, 'module_defaults', fallback);
  const list = Array.isArray(v) ? v : [v];
  return list.map((d) => {
    if (!d || typeof d !== 'object' || Array.isArray(d)) throw new BadInputError(SHAPE, locOf(d) ?? at);
    const out: ModuleDefaults = {};
    for (const [key, args] of Object.entries(d as Record<string, unknown>)) {
      const loc = locOf(d, key) ?? at;
      if (/{{|{%/.test(key)) throw new BadInputError(`${SHAPE}; got the key ${JSON.stringify(key)}`, loc);
      if (key.startsWith('group/')) throw groupRefused(key, loc);
      if (args !== null && typeof args !== 'string' && (typeof args !== 'object' || Array.isArray(args))) {
        throw new BadInputError(`module_defaults for '${key}' must be a mapping of arguments (or a template of one), got ${JSON.stringify(args)}`, loc);
      }
      out[canonicalAction(key)] = args ?? {};
    }
    return out;
  });
}

function groupRefused(key: string, loc: SourceLoc): BadInputError {
  const name = key.slice('group/'.length);
  const short = name.replace(/^ansible\.builtin\./, '');
  const why = BUILTIN_GROUPS.has(short)
    ? `ansible.builtin's group '${short}' only names modules of other collections, which hostwire does not resolve into groups`
    : `hostwire resolves no action groups (ansible.builtin's only name other collections' modules)`;
  return new BadInputError(`module_defaults '${key}' is not supported: ${why}; give the defaults per module name instead`, loc);
}
