// The dnf backend's pure plan (ansible 2.14's dnf module, ensure()): which specs to install, upgrade or
// remove from the installed-package read, and the dnf command lines that do it (--assumeno under
// --check, which prints the transaction dnf would run and runs nothing). A spec the read settles
// (installed for present, not installed for absent) starts no dnf; what the repositories hold and
// what the transaction pulls in are dnf's to say, as they are the module's dnf.Base's.
import { shellQuote } from '../../transports/quote.js';
import { nevra, RELATION, WILDCARD, type DnfState, type RpmPackage } from './dnf-read.js';
import { compareEvr, type Evr } from './rpm-version.js';

export interface DnfWant {
  names: string[];
  state: 'present' | 'latest' | 'absent';
  autoremove: boolean;
  updateCache: boolean;
  updateOnly: boolean;
  allowDowngrade: boolean;
  installWeakDeps: boolean;
  allowErasing: boolean;
  noBest: boolean;
  /** dnf options from the other arguments (--enablerepo=..., --nogpgcheck, ...), one word each. */
  options: string[];
}

export type DnfAction = { kind: 'install' | 'upgrade' | 'remove'; specs: string[] } | { kind: 'autoremove' | 'upgrade-all' | 'makecache' };

export interface DnfPlan {
  actions: DnfAction[];
  /** Lines the module adds to `results` without a change ('hwr-* is not installed'). */
  notes: string[];
}

// ansible's _split_package_arch list (Fedora 28's /usr/lib/rpm/platform).
const ARCHES = new Set(('aarch64 alphaev56 alphaev5 alphaev67 alphaev6 alpha alphapca56 amd64 armv3l armv4b armv4l armv5tejl armv5tel armv5tl ' +
  'armv6hl armv6l armv7hl armv7hnl armv7l athlon geode i386 i486 i586 i686 ia32e ia64 m68k mips64el mips64 mips64r6el mips64r6 mipsel mips ' +
  'mipsr6el mipsr6 noarch pentium3 pentium4 ppc32dy4 ppc64iseries ppc64le ppc64 ppc64p7 ppc64pseries ppc8260 ppc8560 ppciseries ppc ppcpseries ' +
  'riscv64 s390 s390x sh3 sh4a sh4 sh sparc64 sparc64v sparc sparcv8 sparcv9 sparcv9v x86_64').split(' '));

export function splitArch(spec: string): { name: string; arch?: string } {
  const dot = spec.lastIndexOf('.');
  const arch = spec.slice(dot + 1);
  return dot > 0 && ARCHES.has(arch) ? { name: spec.slice(0, dot), arch } : { name: spec };
}

/** ansible's _packagename_dict: name, epoch, version, release of a spec naming a version, else undefined. */
export function packageNameDict(spec: string): (Evr & { name: string }) | undefined {
  const bare = spec.endsWith('.rpm') ? spec.slice(0, -4) : spec;
  const m = /^(\S+)-(?:(\d*):)?(.*)-(~?\w+[\w.+]*)/.exec(splitArch(bare).name);
  if (!m || !m[3] || !/^\d+$/.test(m[3].split('.')[0])) return undefined;
  let [name, epoch] = [m[1], m[2] || '0'];
  if (name.includes(':')) [epoch, name] = [name.split(':')[0], name.split(':').slice(1).join('')];
  return { name, epoch, version: m[3], release: m[4] };
}

/** The rpm query words the plan reads for these specs: each spec and, for a versioned one, its name. */
export const dnfReadWords = (names: string[]): string[] => names.flatMap((s) => [s, ...(packageNameDict(s) ? [packageNameDict(s)!.name] : [])]);

const found = (st: DnfState, word: string): RpmPackage[] => st.installed.get(word) ?? [];

/** _is_installed: the spec names an installed package (by name[.arch] or its full NEVR); a wildcard never does. */
function isInstalled(st: DnfState, spec: string): boolean {
  if (WILDCARD.test(spec) || RELATION.test(spec)) return false;
  const nvr = packageNameDict(spec);
  const name = nvr?.name ?? splitArch(spec).name;
  return found(st, spec).some((p) => p.name === name);
}

/** _is_newer_version_installed: a versioned spec whose name is installed at a later version. */
function isNewerInstalled(st: DnfState, spec: string): boolean {
  const want = packageNameDict(spec);
  const have = want ? found(st, want.name)[0] : undefined;
  return want !== undefined && have !== undefined && compareEvr(have, want) === 1;
}

export function planDnf(st: DnfState, w: DnfWant): DnfPlan {
  const notes: string[] = [];
  if (w.names.length === 1 && w.names[0] === '*' && w.state === 'latest') return { actions: [{ kind: 'upgrade-all' }], notes };
  const install: string[] = [];
  const upgrade: string[] = [];
  const remove: string[] = [];
  const state = w.names.length === 0 && w.autoremove ? 'absent' : w.state;
  for (const spec of w.names) {
    if (state === 'absent') {
      const pkgs = found(st, spec).map(nevra);
      if (WILDCARD.test(spec) && pkgs.length === 0) notes.push(`${spec} is not installed`);
      remove.push(...pkgs.filter((p) => !remove.includes(p)));
      continue;
    }
    const installed = isInstalled(st, spec);
    if (w.updateOnly && !installed) notes.push(`Packages providing ${spec} not installed due to update_only specified`);
    else if (w.updateOnly || (installed && state === 'latest')) upgrade.push(spec);
    else if (isNewerInstalled(st, spec) && !w.allowDowngrade) continue;
    else if (!installed) install.push(spec);
  }
  const actions: DnfAction[] = [];
  if (install.length) actions.push({ kind: 'install', specs: install });
  if (upgrade.length) actions.push({ kind: 'upgrade', specs: upgrade });
  if (remove.length) actions.push({ kind: 'remove', specs: remove });
  if (state === 'absent' && w.autoremove) actions.push({ kind: 'autoremove' });
  if (actions.length === 0 && w.updateCache) actions.push({ kind: 'makecache' });
  return { actions, notes };
}

/** The environment the module parses dnf's output in (get_best_parsable_locale). */
export const DNF_ENV = 'LC_ALL=C.UTF-8 LANG=C.UTF-8 LANGUAGE=C.UTF-8';

/** The command line of one action; check: --assumeno (dnf prints the transaction and does nothing). */
export function dnfCommand(a: DnfAction, w: DnfWant, o: { check: boolean; refresh: boolean }): string {
  const opts = [...w.options, ...(o.refresh ? ['--refresh'] : [])];
  if (a.kind === 'makecache') return `${DNF_ENV} dnf ${opts.map(shellQuote).join(' ')} makecache`.replace(/ {2,}/g, ' ');
  const installs = a.kind === 'install' || a.kind === 'upgrade' || a.kind === 'upgrade-all';
  if (installs) {
    opts.push(`--setopt=install_weak_deps=${w.installWeakDeps ? 'True' : 'False'}`);
    if (w.allowErasing) opts.push('--allowerasing');
    // latest asks dnf for the best candidate unless nobest (the module sets conf.best for it).
    if (w.noBest) opts.push('--nobest');
    else if (w.state === 'latest') opts.push('--best');
  } else opts.push(`--setopt=clean_requirements_on_remove=${w.autoremove ? 'True' : 'False'}`);
  const verb = a.kind === 'upgrade-all' ? 'upgrade' : a.kind;
  const specs = 'specs' in a ? ` -- ${a.specs.map(shellQuote).join(' ')}` : '';
  return `${DNF_ENV} dnf ${o.check ? '--assumeno' : '-y'} ${opts.map(shellQuote).join(' ')} ${verb}${specs}`;
}
