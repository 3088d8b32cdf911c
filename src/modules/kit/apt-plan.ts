// The apt backend's pure plan (ansible 2.14's apt module: package_status, install, remove, cleanup,
// install_deb): what to install, upgrade or remove from the read state, and the apt-get command lines
// that do it (with --simulate under --check, as the module predicts). apt and package share it.
import { HostwireError } from '../../errors.js';
import { shellJoin, shellQuote } from '../../transports/quote.js';
import type { Change } from '../types.js';
import { APT_ENV, specName, type AptPackage, type AptState } from './apt-read.js';
import { compareDebVersions } from './deb-version.js';
import { fnmatch } from './fnmatch.js';

export interface AptWant {
  names: string[];
  state: 'present' | 'absent' | 'latest';
  purge: boolean;
  autoremove: boolean;
  installRecommends?: boolean;
  /** Comma-separated dpkg options (force-confdef,force-confold). */
  dpkgOptions: string;
  deb?: string;
  updateCache?: boolean;
  cacheValidTime: number;
}

export type AptAction =
  | { kind: 'update'; summary: string }
  | { kind: 'install' | 'remove'; summary: string; specs: string[]; names: string[]; before: string; after: string }
  | { kind: 'autoremove' | 'deb'; summary: string; before?: string; after?: string };

const WILDCARD = /[*?[\]!]/;

/** Ansible's cache rule: refresh when update_cache or cache_valid_time is set and mtime + valid time < now. */
export const cacheIsStale = (st: AptState, w: AptWant): boolean => (w.updateCache === true || w.cacheValidTime > 0) && st.cacheTime + w.cacheValidTime < st.now;

function splitSpec(spec: string): { name: string; cmp?: '=' | '>='; version?: string } {
  const m = /^(.*?)(>?=)(.*)$/.exec(spec);
  return m ? { name: m[1], cmp: m[2] as '=' | '>=', version: m[3] } : { name: spec };
}

/** expand_pkgspec_from_fnmatches: a wildcard name becomes the cache's names it matches (its version dropped, as there). */
function expand(st: AptState, specs: string[]): string[] {
  return specs.flatMap((spec) => {
    const pattern = specName(spec);
    if (!WILDCARD.test(pattern)) return [spec];
    const found = (st.matches.get(pattern) ?? []).filter((n) => fnmatch(n, pattern));
    if (found.length === 0) throw new HostwireError('bad-input', `No package(s) matching '${pattern}' available`);
    return found;
  });
}

const newest = (versions: string[]) => [...versions].sort((a, b) => compareDebVersions(b, a))[0];

interface Status {
  installed: boolean;
  /** The installed version meets the spec. */
  versionInstalled: boolean;
  /** The version apt would install for the spec, true for a virtual name (apt-get decides), else undefined. */
  installable?: string | true;
  hasFiles: boolean;
}

/** package_status: installed, installed version matching, installable version, files left (for purge). */
function status(p: AptPackage | undefined, spec: string, forInstall: boolean): Status {
  const { name, cmp, version } = splitSpec(spec);
  const hasFiles = p?.dpkgState !== undefined && p.dpkgState !== 'n';
  if (!p || (p.versions.length === 0 && p.installed === undefined)) {
    if (!forInstall) return { installed: false, versionInstalled: false, hasFiles };
    if (p?.known) return { installed: false, versionInstalled: false, installable: true, hasFiles };
    throw new HostwireError('bad-input', `No package matching '${name}' is available`);
  }
  const best = cmp === '=' ? newest(p.versions.filter((v) => fnmatch(v, version!))) : p.candidate;
  if (p.installed === undefined) return { installed: false, versionInstalled: false, installable: best, hasFiles };
  const have = p.installed;
  const meets = (v: string) => (cmp === '=' ? fnmatch(v, version!) : cmp === '>=' ? compareDebVersions(v, version!) >= 0 : true);
  return { installed: true, versionInstalled: meets(have), installable: best !== undefined && best !== have && meets(best) ? best : undefined, hasFiles };
}

const listing = (names: string[], show: (n: string) => string) => names.map((n) => `${n}: ${show(n)}\n`).join('');

function planInstall(st: AptState, w: AptWant): AptAction[] {
  const specs: string[] = [];
  const names: string[] = [];
  const target = new Map<string, string>();
  for (const spec of expand(st, w.names)) {
    const { name, version, cmp } = splitSpec(spec);
    names.push(name);
    const s = status(st.packages.get(name), spec, true);
    if (!s.versionInstalled && !s.installable) throw new HostwireError('bad-input', `no available installation candidate for ${spec}`);
    if (s.installable && (!s.installed || w.state === 'latest' || !s.versionInstalled)) {
      const pinned = s.installable !== true ? s.installable : version;
      specs.push(pinned !== undefined ? `${name}=${pinned}` : name);
      target.set(name, pinned ?? 'candidate');
    } else if (s.versionInstalled && s.installable && cmp === '=') {
      // Ansible's legacy path: installed, a newer version matches the wildcard too - asked again as written.
      specs.push(`${name}=${version}`);
      target.set(name, version!);
    }
  }
  if (specs.length === 0) return [];
  const touched = names.filter((n) => target.has(n));
  const before = listing(touched, (n) => st.packages.get(n)?.installed ?? 'absent');
  return [{ kind: 'install', summary: `install ${specs.join(', ')}`, specs, names, before, after: listing(touched, (n) => target.get(n)!) }];
}

function planRemove(st: AptState, w: AptWant): AptAction[] {
  const specs = expand(st, w.names).filter((spec) => {
    const s = status(st.packages.get(specName(spec)), spec, false);
    return s.versionInstalled || (s.hasFiles && w.purge);
  });
  if (specs.length === 0) return [];
  const names = specs.map(specName);
  const gone = w.purge ? 'purged' : 'absent';
  const before = listing(names, (n) => st.packages.get(n)?.installed ?? 'config files');
  return [{ kind: 'remove', summary: `${w.purge ? 'purge' : 'remove'} ${specs.join(', ')}`, specs, names, before, after: listing(names, () => gone) }];
}

/** install_deb: nothing when the same version is installed; a later one installed is refused as python-apt does. */
function planDeb(st: AptState, w: AptWant): AptAction[] {
  const deb = st.deb;
  if (!deb?.package || deb.version === undefined) throw new HostwireError('bad-input', `Unable to install package: ${deb?.error ?? `cannot read ${w.deb}`}`);
  const have = st.packages.get(deb.package)?.installed;
  if (have !== undefined && compareDebVersions(deb.version, have) === 0) return [];
  if (have !== undefined && compareDebVersions(deb.version, have) < 0) throw new HostwireError('bad-input', `A later version is already installed (${deb.package} ${have}, ${w.deb} holds ${deb.version})`);
  return [{ kind: 'deb', summary: `install ${w.deb} (${deb.package} ${deb.version})`, before: `${deb.package}: ${have ?? 'absent'}\n`, after: `${deb.package}: ${deb.version}\n` }];
}

/** cleanup(autoremove): changed when apt-get says it would remove something. */
function planAutoremove(st: AptState): AptAction[] {
  const sim = st.autoremoveSim;
  if (!sim) return [];
  if (sim.rc !== 0) throw new HostwireError('command-failed', `'apt-get autoremove' failed: ${sim.out.trim()}`);
  const m = /The following packages will be REMOVED:\n((?: .*\n?)*)/.exec(sim.out);
  if (!m) return [];
  const names = m[1].trim().split(/\s+/).map((n) => n.replace(/\*$/, ''));
  return [{ kind: 'autoremove', summary: `autoremove ${names.join(', ')}`, before: listing(names, (n) => st.packages.get(n)?.installed ?? 'installed'), after: listing(names, () => 'absent') }];
}

/** The actions in Ansible's order: cache, deb, then packages (or, without names, autoremove). */
export function planApt(st: AptState, w: AptWant, o: { cacheDone?: boolean } = {}): AptAction[] {
  if (!st.hasAptGet) throw new HostwireError('bad-input', 'apt-get not found on the host: the apt module needs a Debian/Ubuntu host');
  const actions: AptAction[] = [];
  if (!o.cacheDone && cacheIsStale(st, w)) actions.push({ kind: 'update', summary: 'update the apt cache' });
  if (w.deb !== undefined) actions.push(...planDeb(st, w));
  if (w.names.length === 0) {
    if (w.autoremove) actions.push(...planAutoremove(st));
    return actions;
  }
  actions.push(...(w.state === 'absent' ? planRemove(st, w) : planInstall(st, w)));
  return actions;
}

const dpkgOptions = (w: AptWant) => w.dpkgOptions.split(',').map((o) => `-o ${shellQuote(`Dpkg::Options::=--${o}`)}`).join(' ');
const recommends = (w: AptWant) => (w.installRecommends === undefined ? [] : [`-o APT::Install-Recommends=${w.installRecommends ? 'yes' : 'no'}`]);

/** The command lines of one action (simulate: apt-get --simulate, what --check runs; nothing marked). */
export function aptCommands(a: AptAction, w: AptWant, simulate: boolean): string[] {
  const sim = simulate ? ['--simulate'] : [];
  const getFlags = (...flags: (string | false)[]) => [APT_ENV, 'apt-get', ...flags.filter((f): f is string => f !== false)].join(' ');
  switch (a.kind) {
    case 'update':
      return simulate ? [] : [`${APT_ENV} apt-get update -q`];
    case 'install':
      return [
        `${getFlags('-y', dpkgOptions(w), w.autoremove && '--auto-remove', ...sim, 'install', ...recommends(w))} -- ${shellJoin(a.specs)}`,
        ...(simulate ? [] : [`apt-mark manual -- ${shellJoin(a.names)} >/dev/null`]),
      ];
    case 'remove':
      return [`${getFlags('-q', '-y', dpkgOptions(w), w.purge && '--purge', w.autoremove && '--auto-remove', ...sim, 'remove')} -- ${shellJoin(a.specs)}`];
    case 'autoremove':
      return [getFlags('-y', dpkgOptions(w), w.purge && '--purge', 'autoremove', ...sim)];
    case 'deb':
      return [`${getFlags('-y', dpkgOptions(w), ...sim, 'install', ...recommends(w))} -- ${shellQuote(w.deb!)}`];
  }
}

export function aptChanges(actions: AptAction[], w: AptWant): Change[] {
  return actions.map((a) => ({ summary: a.summary, ...('before' in a && a.before !== undefined ? { before: a.before, after: a.after } : {}), run: aptCommands(a, w, false) }));
}
