// package: install/remove/upgrade with apt or dnf/yum. The manager comes from the
// `use` argument (Ansible's: auto, apt, dnf, yum), else the hostwire_pkg_mgr variable, else what
// the host has; a manager asked for by name must be on the host. Installed state is read from
// dpkg-query / rpm -q; apt-get update runs only when a wanted package is unknown to apt-cache.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { Change, Module } from '../types.js';
import { parsePackages, type PackageState, type PkgMgr } from './parse.js';
import { packageDoc } from './doc.js';
import { aptCommands, type AptWant } from '../kit/apt-plan.js';

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
      (latest ? ` $m -q -C list --upgrades ${names} 2>/dev/null | sed 's/^/upgrade /';` : ''),
    'fi)',
  ].join('\n');
}

/** What ansible's package hands to apt: name and state, apt's defaults for the rest. */
const aptWant = (names: string[], state: AptWant['state']): AptWant => ({ names, state, purge: false, autoremove: false, dpkgOptions: 'force-confdef,force-confold', cacheValidTime: 0 });

function commandsFor(mgr: PkgMgr, action: 'install' | 'remove', names: string[]): string[] {
  const list = names.join(' ');
  if (mgr !== 'apt') return [`${mgr} -y -q ${action === 'install' ? 'install' : 'remove'} ${list}`];
  // apt-get's command lines come from the apt backend the apt module uses (kit/apt-plan.ts).
  const step = { kind: action, summary: '', specs: names, names, before: '', after: '' } as const;
  const apt = aptCommands(step, aptWant(names, action === 'install' ? 'present' : 'absent'), false);
  if (action === 'remove') return apt;
  // Refresh the lists only when apt does not know a wanted package yet.
  return [`for p in ${list}; do apt-cache show "$p" >/dev/null 2>&1 || { apt-get update -q; break; }; done`, ...apt];
}

export function planPackages(st: PackageState, a: PackageArgs, host = 'the host'): Change[] {
  if (st.mgr === 'none' && st.missing) throw new HostwireError('bad-input', `the package manager asked for (${a.use !== 'auto' ? `use: ${a.use}` : 'hostwire_pkg_mgr'}) is not on ${host}: ${st.missing} not found`);
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

export const packageModule: Module<PackageArgs, PackageState> = {
  name: 'package',
  doc: packageDoc,
  args: packageArgs,
  probe: (a, ctx) => ({ command: probeCommand(a, ctx.vars.hostwire_pkg_mgr), parse: parsePackages }),
  plan: (st, a, ctx) => planPackages(st, a, ctx.host),
};
