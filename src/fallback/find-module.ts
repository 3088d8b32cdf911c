// Finds a module hostwire has no native version of where ansible-core 2.14 would (plugins/loader.py):
// a short or ansible.legacy. name in the task's role's library/, the playbook's library/, the
// configured library paths, then ansible-core's own modules, then ansible.builtin's routing table
// (ansible_builtin_runtime.yml: `nmcli` -> community.general.nmcli); a `ns.coll.name` in the
// installed collections, following each collection's meta/runtime.yml redirects. Pure file-system
// reads: the finder is tested on folders made for it.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface FindContext {
  /** library/ folders searched first, best first (the task's role's, other roles', the playbook's). */
  localLibraries: string[];
  /** action_plugins/ folders beside them: a name there is an action with controller-side code. */
  localActionPlugins?: string[];
  /** Configured library paths (ANSIBLE_LIBRARY / [defaults] library). */
  library: string[];
  /** Collection roots, each holding ansible_collections/<ns>/<coll>. */
  collections: string[];
  /** ansible-core's `ansible` package directory, when installed. */
  corePackageDir?: string;
  /** Whether a path is a regular file: a run's resolver answers from cached directory listings; a stat by default. */
  isFile?: (p: string) => boolean;
}

export interface FoundModule {
  /** The name the task wrote. */
  written: string;
  /** The name it resolved to: ansible.builtin.getent, community.general.modprobe, ansible.legacy.my_mod. */
  resolved: string;
  path: string;
  /** Python name it runs under on the host, as AnsiballZ names it. */
  remoteFqn: string;
  source: 'library' | 'core' | 'collection';
  /** A controller-side action plugin of the same name: the module alone is not the whole action. */
  actionPlugin?: string;
}

export interface NotFound {
  written: string;
  /** Every place looked, for the error message. */
  looked: string[];
  /** Why the name cannot be used although it names something (a removed module). */
  reason?: string;
}

const MAX_REDIRECTS = 10;
const IDENT = /^[A-Za-z_]\w*$/;

export function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `<dir>/<name>.py` or an extension-less `<dir>/<name>` (old-style and binary modules are refused later). */
function moduleFileIn(dir: string, name: string, exists: (p: string) => boolean = isFile): string | undefined {
  for (const f of [`${name}.py`, name]) {
    const p = path.join(dir, f);
    if (exists(p)) return p;
  }
  return undefined;
}

const yamlCache = new Map<string, unknown>();
function readYaml(file: string): unknown {
  if (!yamlCache.has(file)) {
    let v: unknown;
    try {
      v = parseYaml(readFileSync(file, 'utf8'));
    } catch {
      v = undefined;
    }
    yamlCache.set(file, v);
  }
  return yamlCache.get(file);
}

interface Routing {
  redirect?: string;
  tombstone?: { warning_text?: string; removal_version?: string; removal_date?: string };
}

function moduleRouting(runtimeFile: string, name: string): Routing | undefined {
  const doc = readYaml(runtimeFile) as { plugin_routing?: { modules?: Record<string, Routing> } } | undefined;
  const r = doc?.plugin_routing?.modules?.[name];
  return r && typeof r === 'object' ? r : undefined;
}

function collectionDir(ctx: FindContext, ns: string, coll: string): string | undefined {
  for (const root of ctx.collections) {
    const d = path.join(root, 'ansible_collections', ns, coll);
    if (existsSync(d)) return d;
  }
  return undefined;
}

/** Resolves `written` to a module file, or says where it looked. */
export function findModule(written: string, ctx: FindContext): FoundModule | NotFound {
  const exists = ctx.isFile ?? isFile;
  const looked: string[] = [];
  let name = written;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const parts = name.split('.');
    const legacy = parts.length === 1 || (parts.length === 3 && parts[0] === 'ansible' && parts[1] === 'legacy');
    const builtin = parts.length === 3 && parts[0] === 'ansible' && parts[1] === 'builtin';
    const short = parts[parts.length - 1]!;
    if (!IDENT.test(short) || (parts.length !== 1 && parts.length < 3)) return { written, looked, reason: `'${name}' is not a module name (name, or namespace.collection.name)` };
    if (legacy) {
      // An action plugin of the name wins over a module of it, as Ansible's action loader is asked first.
      const action = (ctx.localActionPlugins ?? []).map((d) => path.join(d, `${short}.py`)).find(exists);
      for (const dir of [...ctx.localLibraries, ...ctx.library]) {
        looked.push(dir);
        const p = moduleFileIn(dir, short, exists);
        if (p) return { written, resolved: `ansible.legacy.${short}`, path: p, remoteFqn: `ansible.modules.${short}`, source: 'library', actionPlugin: action };
      }
      if (action) return { written, resolved: `ansible.legacy.${short}`, path: action, remoteFqn: `ansible.modules.${short}`, source: 'library', actionPlugin: action };
    }
    if (legacy || builtin) {
      if (!ctx.corePackageDir) return { written, looked };
      const coreModules = path.join(ctx.corePackageDir, 'modules');
      looked.push(coreModules);
      const p = moduleFileIn(coreModules, short, exists);
      if (p) {
        const action = path.join(ctx.corePackageDir, 'plugins', 'action', `${short}.py`);
        return { written, resolved: `ansible.builtin.${short}`, path: p, remoteFqn: `ansible.modules.${short}`, source: 'core', actionPlugin: exists(action) ? action : undefined };
      }
      const runtime = path.join(ctx.corePackageDir, 'config', 'ansible_builtin_runtime.yml');
      const r = moduleRouting(runtime, short);
      if (r?.tombstone) return { written, looked, reason: `ansible.builtin.${short} was removed from ansible-core${r.tombstone.warning_text ? `: ${r.tombstone.warning_text}` : ''}` };
      if (!r?.redirect) return { written, looked };
      name = r.redirect;
      continue;
    }
    const [ns, coll] = parts as [string, string];
    const sub = parts.slice(2);
    const dir = collectionDir(ctx, ns, coll);
    if (!dir) {
      looked.push(...ctx.collections.map((root) => path.join(root, 'ansible_collections', ns, coll)));
      return { written, looked, reason: `collection ${ns}.${coll} is not installed in any collections path` };
    }
    const r = moduleRouting(path.join(dir, 'meta', 'runtime.yml'), sub.join('.'));
    if (r?.tombstone) return { written, looked, reason: `${name} was removed from ${ns}.${coll}${r.tombstone.warning_text ? `: ${r.tombstone.warning_text}` : ''}` };
    if (r?.redirect) {
      name = r.redirect;
      continue;
    }
    const modulesDir = path.join(dir, 'plugins', 'modules', ...sub.slice(0, -1));
    looked.push(modulesDir);
    const p = moduleFileIn(modulesDir, short, exists);
    if (!p) return { written, looked };
    const action = path.join(dir, 'plugins', 'action', `${short}.py`);
    return {
      written, resolved: name, path: p, source: 'collection',
      remoteFqn: ['ansible_collections', ns, coll, 'plugins', 'modules', ...sub].join('.'),
      actionPlugin: exists(action) ? action : undefined,
    };
  }
  return { written, looked, reason: `more than ${MAX_REDIRECTS} redirects (a loop in plugin_routing?)` };
}

export const isFound = (r: FoundModule | NotFound): r is FoundModule => 'path' in r;

/** Whether the installed collection `ns.coll` has a module `name` (a file, or a routing entry for it): a `collections:` search hit. */
export function collectionHasModule(collection: string, name: string, roots: string[]): boolean {
  const [ns, coll, ...rest] = collection.split('.');
  if (!ns || !coll || rest.length || !IDENT.test(name)) return false;
  const dir = collectionDir({ localLibraries: [], library: [], collections: roots }, ns, coll);
  if (!dir) return false;
  return moduleRouting(path.join(dir, 'meta', 'runtime.yml'), name) !== undefined || moduleFileIn(path.join(dir, 'plugins', 'modules'), name) !== undefined;
}
