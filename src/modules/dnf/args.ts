// ansible.builtin.dnf's arguments (ansible-core 2.14: module_utils/yumdnf.py's spec plus allowerasing and
// nobest) that hostwire drives; list, download_only/download_dir, installroot other than /, and names
// that are groups, modules, rpm files, URLs or file paths are refused, naming them.
import { z } from 'zod';
import { ansibleBool, ansibleInt, withAliases } from '../kit/ansible-args.js';
import { ansibleStrList } from '../kit/ansible-list.js';
import { RELATION } from '../kit/dnf-read.js';
import type { DnfWant } from '../kit/dnf-plan.js';

// YumDnf.listify_comma_sep_strings_in_list: every element split at commas, trimmed.
const commaList = ansibleStrList.transform((l) => l.flatMap((e) => (e.includes(',') ? e.split(',').map((x) => x.trim()) : [e.trim()])).filter((e, _i, all) => !(all.length === 1 && e === '')));

const WORD = /^[A-Za-z0-9_+.:~^*?[\]-]+$/;
const spec = z.string().superRefine((s, ctx) => {
  const bad = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  if (s.includes('://') || s.endsWith('.rpm') || s.startsWith('/')) bad(`rpm files, URLs and file paths are not built: name the package (${JSON.stringify(s)})`);
  else if (s.startsWith('@') || s.includes('/')) bad(`groups and modules (@name, name/profile) are not built: name the packages (${JSON.stringify(s)})`);
  else if (s.includes(' ') && !/[@><=]/.test(s)) bad('It appears that a space separated string of packages was passed in as an argument. To operate on several packages, pass a comma separated string of packages or a list of packages.');
  else if (!WORD.test(s) && !(RELATION.test(s) && s.split(/\s+/).length === 3 && s.split(/\s+/).every((w, i) => i === 1 || WORD.test(w)))) {
    bad(`expected a package spec: name, name.arch, name-version[-release], a wildcard, or 'name >= version' (spaces around the operator): ${JSON.stringify(s)}`);
  }
});

const repoWord = z.string().regex(/^[A-Za-z0-9_.:*?[\]-]+$/, 'expected a repository id or pattern');
const notBuilt = (what: string) => z.unknown().refine(() => false, `${what} is not built (hostwire's dnf installs, upgrades and removes packages)`);

export const dnfShape = {
  name: commaList.pipe(z.array(spec)).default([]),
  state: z.enum(['absent', 'installed', 'latest', 'present', 'removed'], { errorMap: () => ({ message: 'expected absent, installed, latest, present or removed' }) }).optional(),
  enablerepo: commaList.pipe(z.array(repoWord)).default([]),
  disablerepo: commaList.pipe(z.array(repoWord)).default([]),
  exclude: commaList.pipe(z.array(z.string().regex(/^[A-Za-z0-9_+.:~*?[\]-]+$/, 'expected a package name or pattern'))).default([]),
  conf_file: z.string().regex(/^\/[^\0-\x1f\x7f]*$/, 'expected the absolute path of a dnf configuration file').optional(),
  disable_gpg_check: ansibleBool.default(false),
  install_weak_deps: ansibleBool.default(true),
  autoremove: ansibleBool.default(false),
  allowerasing: ansibleBool.default(false),
  nobest: ansibleBool.default(false),
  allow_downgrade: ansibleBool.default(false),
  security: ansibleBool.default(false),
  bugfix: ansibleBool.default(false),
  skip_broken: ansibleBool.default(false),
  update_only: ansibleBool.default(false),
  update_cache: ansibleBool.default(false),
  cacheonly: ansibleBool.default(false),
  releasever: z.union([z.string(), z.number()]).transform(String).pipe(z.string().regex(/^[A-Za-z0-9._-]+$/, 'expected a release version')).optional(),
  disable_excludes: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected all, main or a repository id').optional(),
  disable_plugin: commaList.pipe(z.array(repoWord)).default([]),
  enable_plugin: commaList.pipe(z.array(repoWord)).default([]),
  sslverify: ansibleBool.default(true),
  validate_certs: ansibleBool.default(true),
  lock_timeout: ansibleInt.default(30),
  install_repoquery: ansibleBool.default(true),
  installroot: z.literal('/', { errorMap: () => ({ message: 'installroot other than / is not built' }) }).default('/'),
  list: notBuilt('list (use package_facts)').optional(),
  download_only: ansibleBool.refine((v) => !v, 'download_only is not built').optional(),
  download_dir: notBuilt('download_dir').optional(),
};

export const DNF_ALIASES = { name: ['pkg'], update_cache: ['expire-cache'] } as const;

const refine = <T extends { autoremove: boolean; state?: string; name: string[] }>(a: T, ctx: z.RefinementCtx) => {
  if (a.autoremove && a.state !== undefined && a.state !== 'absent' && a.state !== 'removed') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['autoremove'], message: 'Autoremove should be used alone or with state=absent' });
  if (a.name.includes('*') && !(a.name.length === 1 && a.state === 'latest')) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['name'], message: "name '*' is built only alone with state=latest (dnf upgrade of everything)" });
};

export const dnfArgs = withAliases(z.object(dnfShape).strict().superRefine(refine), DNF_ALIASES);
export type DnfArgs = z.infer<typeof dnfArgs>;

/** The dnf options the other arguments give, one word each (quoted when the command is built). */
function options(a: DnfArgs): string[] {
  return [
    ...(a.conf_file ? [`--config=${a.conf_file}`] : []),
    ...a.disablerepo.map((r) => `--disablerepo=${r}`),
    ...a.enablerepo.map((r) => `--enablerepo=${r}`),
    ...a.exclude.map((e) => `--exclude=${e}`),
    ...(a.disable_excludes ? [`--disableexcludes=${a.disable_excludes}`] : []),
    ...a.disable_plugin.map((p) => `--disableplugin=${p}`),
    ...a.enable_plugin.map((p) => `--enableplugin=${p}`),
    ...(a.disable_gpg_check ? ['--nogpgcheck'] : []),
    ...(a.releasever ? [`--releasever=${a.releasever}`] : []),
    ...(a.security ? ['--security'] : []),
    ...(a.bugfix ? ['--bugfix'] : []),
    ...(a.skip_broken ? ['--skip-broken'] : []),
    ...(a.cacheonly ? ['--cacheonly'] : []),
    ...(a.sslverify ? [] : ['--setopt=sslverify=False']),
  ];
}

export const dnfWant = (a: DnfArgs): DnfWant => ({
  names: a.name.map((n) => n.trim()),
  state: a.state === 'absent' || a.state === 'removed' || (a.state === undefined && a.autoremove) ? 'absent' : a.state === 'latest' ? 'latest' : 'present',
  autoremove: a.autoremove,
  updateCache: a.update_cache,
  updateOnly: a.update_only,
  allowDowngrade: a.allow_downgrade,
  installWeakDeps: a.install_weak_deps,
  allowErasing: a.allowerasing,
  noBest: a.nobest,
  options: options(a),
});
