// package_facts: the installed packages as ansible_facts.packages (ansible.builtin.package_facts,
// ansible-core 2.14): manager (list, default auto) and strategy (first/all) as the module reads them;
// apt and rpm are built, the module's other managers (portage, pkg, pacman, apk, pkg_info) are refused
// by name. A read: it runs under --check and joins the play's batched read.
import { z } from 'zod';
import type { Module, ModuleResult } from '../types.js';
import { packageFactsProbe, type BuiltManager } from './probe.js';
import type { PackageEntry, PackageFactsState } from './parse.js';
import { packageFactsDoc } from './doc.js';
import { assignOwn, ownOrSet } from '../../own-keys.js';

/** get_all_pkg_managers() in the order 2.14 lists them ('auto' appends them so). */
const ALL = ['pkg_info', 'apk', 'pacman', 'pkg', 'rpm', 'portage', 'apt'];
const BUILT: readonly string[] = ['rpm', 'apt'];

const listOfStr = z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((x) => x.trim()) : v), z.array(z.string()));

const packageFactsArgs = z
  .object({
    manager: listOfStr.default(['auto']),
    strategy: z.enum(['first', 'all']).default('first'),
  })
  .strict();
type PackageFactsArgs = z.infer<typeof packageFactsArgs>;

const pyList = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(', ')}]`;

/** The module's manager list: lower-cased, 'auto' (its first occurrence) replaced by every manager. */
function managerList(asked: string[]): string[] {
  const managers = asked.map((m) => m.toLowerCase());
  if (managers.includes('auto')) {
    managers.push(...ALL);
    managers.splice(managers.indexOf('auto'), 1);
  }
  return managers;
}

/** What the module fails with before reading anything, or the built managers to read. */
function plannedRead(a: PackageFactsArgs): { error: string } | { read: BuiltManager[] } {
  const managers = managerList(a.manager);
  const unsupported = [...new Set(managers.filter((m) => !ALL.includes(m)))];
  if (unsupported.length) {
    return { error: a.manager.includes('auto') ? 'Could not auto detect a usable package manager, check warnings for details.' : `Unsupported package managers requested: ${unsupported.join(', ')}` };
  }
  const notBuilt = a.manager.map((m) => m.toLowerCase()).filter((m) => ALL.includes(m) && !BUILT.includes(m));
  if (notBuilt.length) return { error: `package_facts: the manager ${notBuilt.join(', ')} is not built in hostwire (apt and rpm are)` };
  return { read: [...new Set(managers.filter((m) => BUILT.includes(m)))] as BuiltManager[] };
}

function gathered(st: PackageFactsState, a: PackageFactsArgs, read: BuiltManager[]): ModuleResult {
  const packages: Record<string, PackageEntry[]> = {};
  let found = 0;
  for (const m of read) {
    if (found && a.strategy === 'first') break;
    if (!st.found.includes(m)) continue;
    found += 1;
    const mine: Record<string, PackageEntry[]> = {};
    for (const p of st[m]) ownOrSet(mine, String(p.name), () => []).push(p);
    assignOwn(packages, mine);
  }
  if (found === 0) {
    const msg = `Could not detect a supported package manager from the following list: ${pyList(managerList(a.manager))}, or the required Python library is not installed. Check warnings for details.`;
    return { changed: false, failed: true, msg };
  }
  return { changed: false, ansible_facts: { packages } };
}

const probeFor = (a: PackageFactsArgs) => {
  const p = plannedRead(a);
  return 'read' in p ? packageFactsProbe(p.read) : undefined;
};

export const packageFactsModule: Module<PackageFactsArgs> = {
  name: 'package_facts',
  doc: packageFactsDoc,
  args: packageFactsArgs,
  factsLevel: 'host',
  async run(a, ctx): Promise<ModuleResult> {
    const p = plannedRead(a);
    if ('error' in p) return { changed: false, failed: true, msg: p.error };
    return gathered(await ctx.probe(packageFactsProbe(p.read)), a, p.read);
  },
  readsAhead: (a) => {
    const p = probeFor(a);
    return p ? [p] : [];
  },
};
