// package: install/remove/upgrade with apt, dnf or yum. The manager comes from the `use` argument
// (Ansible's: auto, apt, dnf, yum), else the pkg_mgr fact (ansible_facts.pkg_mgr, ansible_pkg_mgr,
// hostwire_pkg_mgr), else what the host has; a manager asked for by name must be on the host. With
// dnf, the dnf module's backend runs (kit/dnf-run.ts), as Ansible's package action runs the dnf
// module: its result and its --check. With apt/yum, dpkg-query / rpm -q read what is installed;
// apt-get update runs only when a wanted package is unknown to apt-cache.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { Change, Module, ModuleContext, ModuleResult } from '../types.js';
import { parsePackages, type PackageState, type PkgMgr } from './parse.js';
import { packageDoc } from './doc.js';
import { aptCommands, type AptWant } from '../kit/apt-plan.js';
import { applyChanges } from '../kit/apply.js';
import { runDnfWant } from '../kit/dnf-run.js';
import type { DnfWant } from '../kit/dnf-plan.js';
import { shellJoin, withEnvAndCwd } from '../../transports/quote.js';

/** The managers hostwire drives; Ansible's other pkg_mgr names (its PKG_MGRS) are refused by name. */
const DRIVEN = ['apt', 'dnf', 'yum'] as const;
const ANSIBLE_ONLY = ['atomic_container', 'zypper', 'urpmi', 'pacman', 'opkg', 'pkgin', 'macports', 'homebrew', 'apk', 'pkgng', 'swdepot', 'portage', 'svr4pkg', 'pkg5', 'xbps', 'swupd', 'sorcery', 'installp'];
const BINARY: Record<PkgMgr, string> = { apt: 'apt-get', dnf: 'dnf', yum: 'yum' };

const useArg = z
  .string()
  .default('auto')
  .superRefine((u, ctx) => {
    if (u === 'auto' || (DRIVEN as readonly string[]).includes(u)) return;
    const why = ANSIBLE_ONLY.includes(u) ? `'${u}' is a package manager hostwire does not drive` : `there is no package manager module '${u}'`;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected auto, apt, dnf or yum: ${why}` });
  });

const pkgName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9+._:~-]*$/, 'expected a package name');

const packageArgs = z
  .object({
    name: z.union([pkgName.transform((n) => [n]), z.array(pkgName).min(1)]),
    state: z.enum(['present', 'installed', 'absent', 'removed', 'latest']).default('present'),
    use: useArg,
  })
  .strict();

export type PackageArgs = z.infer<typeof packageArgs>;

const base = (n: string) => n.split(':')[0];

export function probeCommand(a: PackageArgs, hint?: unknown): string {
  const names = a.name.join(' ');
  const named = a.use !== 'auto' ? a.use : hint;
  const detect =
    named === 'apt' || named === 'dnf' || named === 'yum'
      ? `if command -v ${BINARY[named]} >/dev/null 2>&1; then m=${named}; else m=none; echo missing:${BINARY[named]}; fi`
      : 'if command -v apt-get >/dev/null 2>&1; then m=apt; elif command -v dnf >/dev/null 2>&1; then m=dnf; elif command -v yum >/dev/null 2>&1; then m=yum; else m=none; fi';
  const latest = a.state === 'latest';
  return [
    `(${detect}; echo "mgr:$m"`,
    `if [ "$m" = apt ]; then dpkg-query -W -f='pkg:\${Package} \${Status} \${Version}\\n' ${names} 2>/dev/null;` +
      (latest ? ` apt-cache policy ${names} 2>/dev/null | sed 's/^/policy /';` : ''),
    `elif [ "$m" != none ]; then rpm -q --qf 'pkg:%{NAME} install ok installed %{VERSION}-%{RELEASE}\\n' ${names} 2>/dev/null | grep '^pkg:';` +
      // dnf's upgrades are the dnf backend's to find (it runs dnf): only yum is asked here.
      (latest ? ` [ "$m" = dnf ] || $m -q -C list --upgrades ${names} 2>/dev/null | sed 's/^/upgrade /';` : ''),
    'fi)',
  ].join('\n');
}

/** What ansible's package hands to apt: name and state, apt's defaults for the rest. */
const aptWant = (names: string[], state: AptWant['state']): AptWant => ({ names, state, purge: false, autoremove: false, dpkgOptions: 'force-confdef,force-confold', cacheValidTime: 0 });

function commandsFor(mgr: PkgMgr, action: 'install' | 'remove', names: string[]): string[] {
  const list = names.join(' ');
  if (mgr !== 'apt') return [`${mgr} -y -q ${action === 'install' ? 'install' : 'remove'} -- ${shellJoin(names)}`];
  // apt-get's command lines come from the apt backend the apt module uses (kit/apt-plan.ts).
  const step = { kind: action, summary: '', specs: names, names, before: '', after: '' } as const;
  const apt = aptCommands(step, aptWant(names, action === 'install' ? 'present' : 'absent'), false);
  if (action === 'remove') return apt;
  // Refresh the lists only when apt does not know a wanted package yet.
  return [`for p in ${list}; do apt-cache show "$p" >/dev/null 2>&1 || { apt-get update -q; break; }; done`, ...apt];
}

export function planPackages(st: PackageState, a: PackageArgs, host = 'the host'): Change[] {
  if (st.mgr === 'none' && st.missing) throw new HostwireError('bad-input', `the package manager asked for (${a.use !== 'auto' ? `use: ${a.use}` : 'the pkg_mgr fact'}) is not on ${host}: ${st.missing} not found`);
  if (st.mgr === 'none') throw new HostwireError('bad-input', `no package manager found on ${host}: expected apt-get (Debian/Ubuntu) or dnf/yum (Fedora/RHEL)`);
  const ver = (n: string) => st.installed.get(base(n));
  const show = (names: string[], v: (n: string) => string) => names.map((n) => `${n}: ${v(n)}\n`).join('');
  if (a.state === 'absent' || a.state === 'removed') {
    const present = a.name.filter((n) => ver(n) !== undefined);
    if (present.length === 0) return [];
    return [{ summary: `remove ${present.join(', ')}`, before: show(present, (n) => ver(n)!), after: show(present, () => 'absent'), run: commandsFor(st.mgr, 'remove', present) }];
  }
  const outdated = (n: string) => {
    if (a.state !== 'latest') return false;
    if (st.mgr !== 'apt') return st.upgrades.has(base(n));
    const cand = st.candidates.get(base(n));
    return cand !== undefined && cand !== '(none)' && cand !== ver(n);
  };
  const todo = a.name.filter((n) => ver(n) === undefined || outdated(n));
  if (todo.length === 0) return [];
  const after = (n: string) => (a.state === 'latest' ? (st.candidates.get(base(n)) ?? 'latest') : 'installed');
  return [{ summary: `install ${todo.join(', ')}`, before: show(todo, (n) => ver(n) ?? 'absent'), after: show(todo, after), run: commandsFor(st.mgr, 'install', todo) }];
}

/** The manager named for the host: use, else the pkg_mgr fact as Ansible's package action reads it. */
export function pkgMgrHint(a: PackageArgs, vars: Record<string, unknown>): unknown {
  if (a.use !== 'auto') return a.use;
  const facts = vars.ansible_facts as Record<string, unknown> | undefined;
  return facts?.pkg_mgr ?? vars.ansible_pkg_mgr ?? vars.hostwire_pkg_mgr;
}

/** What Ansible's package hands to the dnf module: name and state, the module's defaults for the rest. */
const dnfWant = (a: PackageArgs): DnfWant => ({
  names: a.name, state: a.state === 'latest' ? 'latest' : a.state === 'absent' || a.state === 'removed' ? 'absent' : 'present',
  autoremove: false, updateCache: false, updateOnly: false, allowDowngrade: false, installWeakDeps: true, allowErasing: false, noBest: false, options: [],
});

const packageProbe = (a: PackageArgs, vars: Record<string, unknown>) => ({ command: probeCommand(a, pkgMgrHint(a, vars)), parse: parsePackages });

async function runPackage(a: PackageArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const st = await ctx.probe(packageProbe(a, ctx.vars));
  if (st.mgr === 'dnf') return runDnfWant(dnfWant(a), ctx);
  // apt and yum: the plan's changes, applied unless --check (the runner's plan/apply, with the same result).
  const changes = planPackages(st, a, ctx.host);
  if (changes.length === 0) return { changed: false };
  const diff = changes.map((c) => ({ header: c.summary, before: c.before, after: c.after }));
  // The task's environment (a proxy) reaches apt-get/yum as it reaches Ansible's module.
  if (!ctx.check) await applyChanges(changes.map((c) => ({ ...c, run: c.run.map((cmd) => withEnvAndCwd(cmd, ctx.environment)) })), ctx);
  return { changed: true, msg: changes.map((c) => c.summary).join('; '), diff, changes: changes.map((c) => c.summary) };
}

export const packageModule: Module<PackageArgs, PackageState> = {
  name: 'package',
  doc: packageDoc,
  args: packageArgs,
  probe: (a, ctx) => packageProbe(a, ctx.vars),
  plan: (st, a, ctx) => planPackages(st, a, ctx.host),
  run: runPackage,
  environment: 'applies',
};
