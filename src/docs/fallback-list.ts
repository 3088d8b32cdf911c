// The modules the Ansible module fallback can find from here, for `hostwire doc`: the playbook's and
// its roles' library/ (the current directory taken as the playbook's), the configured library paths
// (ANSIBLE_LIBRARY, [defaults] library), the installed collections, and ansible-core's own modules
// when the controller has ansible-core. Pure directory listings, except asking where ansible-core lives.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { findAnsibleCore } from '../fallback/ansible-core.js';
import { findModule, isFound, type FindContext } from '../fallback/find-module.js';
import { moduleSearchPaths } from '../fallback/search-paths.js';

export interface FallbackListing {
  /** Where each group came from and its module names, sorted. */
  groups: { source: string; names: string[] }[];
  /** Why ansible-core's own modules are not listed (not installed). */
  coreMissing?: string;
}

const entries = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Module names in one folder: `name.py` or an extension-less file, never private or package files. */
function modulesIn(dir: string): string[] {
  const names = entries(dir).filter((f) => !f.startsWith('_') && !f.startsWith('.') && (f.endsWith('.py') || !f.includes('.')))
    .map((f) => f.replace(/\.py$/, ''));
  return [...new Set(names)].sort();
}

function collectionRoots(roots: string[]): string[] {
  return roots.flatMap((root) => {
    const base = path.join(root, 'ansible_collections');
    return entries(base).flatMap((ns) => entries(path.join(base, ns)).map((coll) => path.join(base, ns, coll)));
  });
}

/** library/ folders of the playbook directory and of its roles. */
function localLibraries(cwd: string): string[] {
  const roles = entries(path.join(cwd, 'roles')).map((r) => path.join(cwd, 'roles', r, 'library'));
  return [path.join(cwd, 'library'), ...roles].filter((d) => existsSync(d));
}

export function findContext(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): { ctx: FindContext; coreMissing?: string } {
  const paths = moduleSearchPaths({ cwd, env });
  const core = findAnsibleCore(env);
  return {
    ctx: {
      localLibraries: localLibraries(cwd),
      library: paths.library,
      collections: [...new Set([...paths.collections, ...(core.core?.sysPathCollections ?? [])])],
      corePackageDir: core.core?.packageDir,
    },
    coreMissing: core.core ? undefined : `ansible-core was not found on this controller (tried ${core.tried.join(', ')}); install it with: apt install ansible-core, or pip install ansible-core`,
  };
}

export function listFallbackModules(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): FallbackListing {
  const { ctx, coreMissing } = findContext(cwd, env);
  const groups: FallbackListing['groups'] = [];
  for (const dir of [...ctx.localLibraries, ...ctx.library]) {
    const names = modulesIn(dir);
    if (names.length) groups.push({ source: dir, names });
  }
  // Ansible's order: library paths, then ansible-core's own modules, then the collections.
  if (ctx.corePackageDir) {
    groups.push({ source: `ansible-core (${path.join(ctx.corePackageDir, 'modules')})`, names: modulesIn(path.join(ctx.corePackageDir, 'modules')) });
  }
  for (const coll of collectionRoots(ctx.collections)) {
    const names = modulesIn(path.join(coll, 'plugins', 'modules'));
    const fq = `${path.basename(path.dirname(coll))}.${path.basename(coll)}`;
    if (names.length) groups.push({ source: `${fq} (${coll})`, names: names.map((n) => `${fq}.${n}`) });
  }
  return { groups, coreMissing };
}

/** Printable text: control characters other than newline and tab are shown escaped. */
const printable = (s: string) => s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** A module file's DOCUMENTATION or EXAMPLES string, as written ('' when it has none). */
function docString(source: string, name: 'DOCUMENTATION' | 'EXAMPLES'): string {
  const m = new RegExp(`^${name}\\s*=\\s*[rRuU]?('''|\"\"\")([\\s\\S]*?)\\1`, 'm').exec(source);
  return m ? m[2]!.replace(/^\n/, '') : '';
}

/** The attributes' check_mode / diff_mode support, as ansible-doc shows them ('unknown' when not declared). */
function checkDiffLine(documentation: string): string | undefined {
  let doc: unknown;
  try {
    doc = parseYaml(documentation);
  } catch {
    return undefined;
  }
  const attrs = (doc as { attributes?: Record<string, { support?: unknown }> } | null)?.attributes ?? {};
  const support = (k: string) => (typeof attrs[k]?.support === 'string' ? attrs[k]!.support : 'not declared');
  return `CHECK MODE: ${support('check_mode')}    DIFF: ${support('diff_mode')}`;
}

/** `hostwire doc NAME` for a module the fallback would run: where it is, its DOCUMENTATION, check/diff support and EXAMPLES. */
export function fallbackModuleText(name: string, cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | undefined {
  const { ctx } = findContext(cwd, env);
  const found = findModule(name, ctx);
  if (!isFound(found)) return undefined;
  let source = '';
  try {
    source = readFileSync(found.path, 'utf8');
  } catch {
    // unreadable: the pointer to ansible-doc is enough
  }
  const documentation = docString(source, 'DOCUMENTATION');
  const examples = docString(source, 'EXAMPLES');
  const checkDiff = documentation ? checkDiffLine(documentation) : undefined;
  return [`> ${found.resolved.toUpperCase()}  (Ansible fallback: ${found.path})`, '',
    `Not native to hostwire: it runs through the Ansible module fallback. Full reference: ansible-doc ${found.resolved}`, '',
    ...(documentation ? ['DOCUMENTATION:', '', printable(documentation)] : []),
    ...(checkDiff ? [checkDiff, ''] : []),
    ...(examples ? ['EXAMPLES:', '', printable(examples)] : []), ''].join('\n');
}
