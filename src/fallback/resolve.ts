// The one entry the loader uses: a task names a module hostwire has no native version of ->
// find it where Ansible would, check hostwire can run it, and hand back the name the task runs under.
// Everything costly (the search paths, asking ansible-core where it lives) happens on first use,
// so a playbook of native modules never touches Python or ansible-core.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConfigSearch } from '../config/find.js';
import { hasNativeModule, registerResolvedModule } from '../modules/registry.js';
import { findAnsibleCore, type AnsibleCore } from './ansible-core.js';
import { trace } from '../transports/trace.js';
import { fallbackModule, refusedModule, type FallbackSession } from './fallback-module.js';
import type { Module } from '../modules/types.js';
import { collectionHasModule, findModule, isFile, isFound, type FoundModule } from './find-module.js';
import { moduleStyle, unsupportedStyle } from './module-style.js';
import { buildPayload } from './payload.js';
import { shadowOf } from './shadow.js';
import type { Payload } from './payload-types.js';
import { moduleSearchPaths, type ModuleSearchPaths } from './search-paths.js';

export interface ModuleLookupFrom {
  /** Directory of the playbook file holding the task (its library/ and module_utils/). */
  playbookDir: string;
  /** The task's role directory, when it is in a role. */
  roleDir?: string;
  /**
   * Directories of the playbooks that import this one (import_playbook), outermost first: Ansible adds each
   * loaded playbook's library/ and module_utils/ to its search paths for the rest of the run.
   */
  importedBy?: string[];
}

export type Resolution = { name: string } | { error: string };
/** A native name a library/ module replaces: what the task runs instead, with the args its builtin action adds. */
export interface ShadowResolution {
  warnings: string[];
  name?: string;
  error?: string;
  args?: Record<string, unknown>;
}
export type FallbackResolver = ((written: string, from: ModuleLookupFrom) => Resolution) & {
  /** A role the playbook loaded: its library/ and action_plugins/ join the search (Ansible's add_all_plugin_dirs). */
  noteRole(dir: string): void;
  /** For a native module's name: a library/ module (or local action plugin) that replaces it, as ansible.legacy resolution does (shadow.ts). */
  shadowed(written: string, from: ModuleLookupFrom): ShadowResolution;
  /** Whether an installed collection has a module of this name (a task's `collections:` search). */
  inCollection(collection: string, name: string): boolean;
};

/** The module file each registered name runs: a name already meaning another file gets a #n suffix. */
const registeredPaths = new Map<string, string>();

const INSTALL = 'install it with: apt install ansible-core (Debian/Ubuntu), or pip install ansible-core';

/** A resolver for one run: its modules share one payload per host. */
export function createFallbackResolver(search: ConfigSearch = {}): FallbackResolver {
  let paths: ModuleSearchPaths | undefined;
  let core: { core?: AnsibleCore; tried: string[] } | undefined;
  const roleDirs: string[] = [];
  const playbookDirs: string[] = [];
  const modules: FoundModule[] = [];
  let traced = false;
  const session: FallbackSession = {
    get coreVersion() {
      return core?.core?.version ?? '';
    },
    payload: (): Promise<Payload> => {
      const t0 = performance.now();
      const p = buildPayload(core!.core!, {
        modules: modules.map((m) => ({ remoteFqn: m.remoteFqn, path: m.path })),
        moduleUtils: [...paths!.moduleUtils, ...[...roleDirs, ...playbookDirs].map((d) => path.join(d, 'module_utils')).filter((d) => existsSync(d))],
        collections: collectionRoots(paths!, core!.core!),
      });
      if (!traced) void p.then(() => trace('controller', 'fallback payload ready', t0), () => undefined);
      traced = true;
      return p;
    },
  };
  const noteRole = (dir: string) => {
    if (!roleDirs.includes(dir)) roleDirs.push(dir);
  };
  /** The task's own role first, then roles loaded before it, then the playbooks' (importing ones first), as Ansible adds each. */
  const localDirsFor = (from: ModuleLookupFrom): string[] => {
    if (from.roleDir && !roleDirs.includes(from.roleDir)) roleDirs.push(from.roleDir);
    const pbDirs = [...(from.importedBy ?? []), from.playbookDir];
    for (const d of pbDirs) if (!playbookDirs.includes(d)) playbookDirs.push(d);
    const localRoles = from.roleDir ? [from.roleDir, ...roleDirs.filter((d) => d !== from.roleDir)] : roleDirs;
    return [...new Set([...localRoles, ...pbDirs])];
  };
  const warned = new Set<string>();
  const listed = listingCache();
  // Costs one directory listing per library/ and action_plugins/ (no ansible-core) unless a file of the name is there.
  const shadowed = (written: string, from: ModuleLookupFrom): ShadowResolution => {
    paths ??= moduleSearchPaths(search);
    const dirs = localDirsFor(from);
    const libs = [...dirs.map((d) => path.join(d, 'library')), ...paths.library];
    const s = shadowOf(written, (n) => firstFile(libs, [`${n}.py`, n], listed), (n) => firstFile(dirs.map((d) => path.join(d, 'action_plugins')), [`${n}.py`], listed));
    const warnings = s.warnings.filter((w) => !warned.has(w));
    for (const w of warnings) warned.add(w);
    if (!s.shadow) return { warnings };
    return { ...resolve(s.shadow.module, from, s.shadow.refusal, written), ...(s.shadow.args ? { args: s.shadow.args } : {}), warnings };
  };
  // `shadows`: the native name a library/ module replaces here (said so when ansible-core is missing).
  const resolve = (written: string, from: ModuleLookupFrom, shadowRefusal?: string, shadows?: string): Resolution => {
    paths ??= moduleSearchPaths(search);
    if (!core) {
      const t0 = performance.now();
      core = findAnsibleCore(search.env ?? process.env);
      trace('controller', 'ansible-core found', t0);
    }
    const localDirs = localDirsFor(from);
    const found = findModule(written, {
      localLibraries: localDirs.map((d) => path.join(d, 'library')),
      localActionPlugins: localDirs.map((d) => path.join(d, 'action_plugins')),
      library: paths.library,
      collections: collectionRoots(paths, core.core),
      corePackageDir: core.core?.packageDir,
      isFile: (p) => listed(path.dirname(p)).has(path.basename(p)),
    });
    const where = (looked: string[]) => (looked.length ? `; looked in ${[...new Set(looked)].join(', ')}` : '');
    if (!isFound(found)) {
      const noCore = core.core ? '' : `; ansible-core was not found on this controller (tried ${core.tried.join(', ')}): ${INSTALL}`;
      return { error: `couldn't resolve module/action '${written}': not a hostwire module${found.reason ? `, and ${found.reason}` : ', and not found where Ansible looks'}${where(found.looked)}${noCore}` };
    }
    if (!core.core) return { error: noCoreError(written, found.path, core.tried, shadows) };
    // What the fallback cannot run fails its task when it runs, not the load: real content keeps such
    // tasks behind conditions (a reboot only on transactional systems) that may never hold.
    const style = unsupportedStyle(moduleStyle(readFileSync(found.path)));
    const refusal = shadowRefusal ?? (found.actionPlugin
      ? `module '${written}' (${found.resolved}) is an action with controller-side code (${found.actionPlugin}); hostwire has no native version of it and its fallback runs only the host-side module`
      : style && `module '${written}' (${found.path}) is ${style}`);
    return { name: register(found, refusal ? refusedModule(refusal) : (key) => fallbackModule(key, found, session), refusal ? undefined : modules) };
  };
  return Object.assign(resolve, { noteRole, shadowed, inCollection: collectionSearch(search) });
}

function noCoreError(written: string, file: string, tried: string[], shadows?: string): string {
  const what = shadows ? `'${shadows}' is ${file} here (it replaces hostwire's native ${shadows}, as ansible.legacy resolution does)` : `module '${written}' (${file}) is not native to hostwire`;
  return `${what}: it runs through the Ansible module fallback, which needs ansible-core on this controller to gather its module_utils; none found (tried ${tried.join(', ')}): ${INSTALL}`;
}

function firstFile(dirs: string[], names: string[], listed: (dir: string) => Set<string>): string | undefined {
  for (const d of dirs) for (const n of names) if (listed(d).has(n)) return path.join(d, n);
  return undefined;
}

/**
 * Each directory's regular files, read once per run, as Ansible's plugin loader caches each path's listing: every
 * task is looked up (a native one for a library/ module or action plugin that replaces it) in every role's library/
 * loaded so far, which for kubespray's cluster.yml (~740 tasks, ~100 roles) was 155,000 stat calls, 1.7 s of a
 * 3.4 s load (2.1 s after).
 */
function listingCache(): (dir: string) => Set<string> {
  const listings = new Map<string, Set<string>>();
  return (dir) => {
    let files = listings.get(dir);
    if (!files) {
      files = new Set();
      // Most roles have no library/: existsSync, as a failed readdir's exception costs more than the read.
      if (existsSync(dir)) {
        try {
          for (const e of readdirSync(dir, { withFileTypes: true })) {
            if (e.isFile() || (e.isSymbolicLink() && isFile(path.join(dir, e.name)))) files.add(e.name);
          }
        } catch {
          // not a readable directory: nothing in it
        }
      }
      listings.set(dir, files);
    }
    return files;
  };
}

function collectionRoots(paths: ModuleSearchPaths, core: AnsibleCore | undefined): string[] {
  return [...new Set([...paths.collections, ...(core?.sysPathCollections ?? [])])];
}

/** A `collections:` search hit: whether an installed collection has a module of the name (asked once per pair). */
function collectionSearch(search: ConfigSearch): (collection: string, name: string) => boolean {
  const roots = collectionRootsFinder(search);
  const hits = new Map<string, boolean>();
  return (collection, name) => {
    const key = `${collection}\0${name}`;
    if (!hits.has(key)) hits.set(key, collectionHasModule(collection, name, roots()));
    return hits.get(key)!;
  };
}

/** The installed collection roots (for `ns.coll.role` names), worked out on first call only. */
export function collectionRootsFinder(search: ConfigSearch = {}): () => string[] {
  let roots: string[] | undefined;
  return () => (roots ??= collectionRoots(moduleSearchPaths(search), findAnsibleCore(search.env ?? process.env).core));
}

/** The name a task runs the module under: as written, unless that name already means another file. */
function register(found: FoundModule, make: (key: string) => Module<Record<string, unknown>>, payloadModules?: FoundModule[]): string {
  if (payloadModules && !payloadModules.some((m) => m.path === found.path)) payloadModules.push(found);
  let key = found.written;
  // A native module's name (a library/ module shadowing it) is taken in the registry: the fallback's gets a suffix.
  const taken = (k: string) => hasNativeModule(k) || (registeredPaths.has(k) && registeredPaths.get(k) !== found.path);
  for (let n = 2; taken(key); n++) key = `${found.written}#${n}`;
  registeredPaths.set(key, found.path);
  registerResolvedModule(key, make(key));
  return key;
}
