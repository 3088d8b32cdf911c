// The apt backend's read (apt and package share it): in one read-only snippet, what python-apt's cache
// tells ansible's apt module - each package's dpkg state and version, apt-cache policy's candidate and
// version table, the names a wildcard matches in the cache, the cache's age, what `apt-get -s autoremove`
// would remove and a .deb file's fields. Parsed purely; host output is data.
import { ProbeParseError } from '../../errors.js';
import { need, readSections, section } from '../../probe/sections.js';
import type { ProbeOutput } from '../../probe/types.js';
import { shellJoin, shellQuote } from '../../transports/quote.js';

/** The environment ansible's apt module runs apt-get with (parsable English output, no questions). */
export const APT_ENV = 'DEBIAN_FRONTEND=noninteractive DEBIAN_PRIORITY=critical LANG=C.UTF-8 LC_ALL=C.UTF-8 LC_MESSAGES=C.UTF-8 LC_CTYPE=C.UTF-8';
const WILDCARD = /[*?[\]!]/;

export interface AptPackage {
  /** dpkg's current state letter (db:Status-Abbrev's second): i installed, c config-files, n not installed... */
  dpkgState?: string;
  installed?: string;
  /** apt-cache policy's candidate (pinning applied); undefined when '(none)'. */
  candidate?: string;
  /** Every version apt knows, newest first. */
  versions: string[];
  /** apt-cache policy printed a block for it: the name is in apt's cache (a virtual one has no versions). */
  known: boolean;
}

export interface AptState {
  hasAptGet: boolean;
  /** The host's clock and the cache's mtime (update-success-stamp, else /var/lib/apt/lists), seconds. */
  now: number;
  cacheTime: number;
  packages: Map<string, AptPackage>;
  /** Each wildcard pattern of `name` -> the cache's names it matches (multiarch names only when it has ':'). */
  matches: Map<string, string[]>;
  /** `apt-get -s autoremove` (read when autoremove is asked without names). */
  autoremoveSim?: { out: string; rc: number };
  /** The .deb of `deb`: its fields (undefined when dpkg-deb could not read it, with its message). */
  deb?: { package?: string; version?: string; error?: string };
}

export interface AptRead {
  names: string[];
  autoremove?: { purge: boolean };
  deb?: string;
}

/** The package name of a spec (`name`, `name=1.0*`, `name>=2`). */
export const specName = (spec: string): string => spec.split(/>?=/, 1)[0];

/** Shell that expands each wildcard pattern over `apt-cache pkgnames` (fnmatch, as the module does) into "$@". */
function expandWildcards(patterns: string[]): string {
  const cases = patterns.map((p) => `case "$n" in ${p.includes(':') ? '' : '*:*) ;; '}${p}) printf '%s\\t%s\\n' ${shellQuote(p)} "$n"; set -- "$@" "$n" ;; esac;`);
  return `for n in $(apt-cache pkgnames 2>/dev/null | sort); do ${cases.join(' ')} done`;
}

export function aptReadCommand(r: AptRead): string {
  const names = [...new Set(r.names.map(specName))];
  const literal = names.filter((n) => !WILDCARD.test(n));
  const patterns = names.filter((n) => WILDCARD.test(n));
  // A pattern is used unquoted only as a `case` pattern: the argument check allows [A-Za-z0-9+.:_~*?[]!-] in it.
  const parts = [
    section('tool', 'command -v apt-get'),
    section('now', 'date +%s'),
    section('cache', 'if [ -e /var/lib/apt/periodic/update-success-stamp ]; then stat -c %Y /var/lib/apt/periodic/update-success-stamp; elif [ -e /var/lib/apt/lists ]; then stat -c %Y /var/lib/apt/lists; else echo 0; fi'),
    `set -- ${shellJoin(literal)}`,
  ];
  if (patterns.length) parts.push(section('matches', expandWildcards(patterns)));
  if (names.length) {
    parts.push(`if [ $# -gt 0 ]; then ${section('dpkg', "dpkg-query -W -f='${Package}\\t${db:Status-Abbrev}\\t${Version}\\n' -- \"$@\"")}; fi`);
    parts.push(`if [ $# -gt 0 ]; then ${section('policy', 'LC_ALL=C.UTF-8 apt-cache policy -- "$@"')}; fi`);
  }
  if (r.autoremove) parts.push(section('autoremove', `${APT_ENV} apt-get -s -y ${r.autoremove.purge ? '--purge ' : ''}autoremove`));
  if (r.deb !== undefined) {
    const deb = shellQuote(r.deb);
    parts.push(section('deb', `dpkg-deb -f -- ${deb} Package Version`));
    parts.push(section('debpkg', `p=$(dpkg-deb -f -- ${deb} Package) && dpkg-query -W -f='\${Package}\\t\${db:Status-Abbrev}\\t\${Version}\\n' -- "$p"`));
  }
  return `(${parts.join('\n')})`;
}

function parseDpkg(out: string, into: Map<string, AptPackage>): void {
  for (const line of out.split('\n')) {
    const m = /^([^\t]+)\t(.)(.). ?\t(.*)$/.exec(line);
    if (!m) continue;
    const p = pkg(into, m[1]);
    p.dpkgState = m[3];
    if (m[3] === 'i') p.installed = m[4];
  }
}

function pkg(into: Map<string, AptPackage>, name: string): AptPackage {
  let p = into.get(name);
  if (!p) into.set(name, (p = { versions: [], known: false }));
  return p;
}

function parsePolicy(out: string, into: Map<string, AptPackage>): void {
  let cur: AptPackage | undefined;
  for (const line of out.split('\n')) {
    const head = /^(\S+):$/.exec(line);
    if (head) {
      cur = pkg(into, head[1]);
      cur.known = true;
      continue;
    }
    if (!cur) continue;
    const cand = /^ {2}Candidate: (\S+)$/.exec(line);
    if (cand) cur.candidate = cand[1] === '(none)' ? undefined : cand[1];
    const ver = /^ (?:\*\*\*| {3}) (\S+) -?\d+$/.exec(line);
    if (ver && !cur.versions.includes(ver[1])) cur.versions.push(ver[1]);
  }
}

function parseMatches(out: string): Map<string, string[]> {
  const matches = new Map<string, string[]>();
  for (const line of out.split('\n')) {
    const [pattern, name] = line.split('\t');
    if (name === undefined) continue;
    matches.set(pattern, [...(matches.get(pattern) ?? []), name]);
  }
  return matches;
}

const seconds = (s: string, what: string, raw: string): number => {
  if (!/^\d+$/.test(s.trim())) throw new ProbeParseError(`apt read: expected ${what} in seconds, got '${s.trim()}'`, raw);
  return Number(s.trim());
};

export function parseAptRead(out: ProbeOutput): AptState {
  const s = readSections(out.stdout);
  const st: AptState = {
    hasAptGet: need(s, 'tool', out.stdout).rc === 0,
    now: seconds(need(s, 'now', out.stdout).out, 'the host clock', out.stdout),
    cacheTime: seconds(need(s, 'cache', out.stdout).out, "the apt cache's time", out.stdout),
    packages: new Map(),
    matches: parseMatches(s.get('matches')?.out ?? ''),
  };
  parseDpkg(s.get('dpkg')?.out ?? '', st.packages);
  parsePolicy(s.get('policy')?.out ?? '', st.packages);
  const auto = s.get('autoremove');
  if (auto) st.autoremoveSim = { out: auto.out, rc: auto.rc };
  const deb = s.get('deb');
  if (deb) {
    // Asked for two fields, dpkg-deb prints them as "Field: value" lines.
    const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(deb.out)?.[1];
    st.deb = deb.rc === 0 ? { package: field('Package'), version: field('Version') } : { error: deb.out.trim() };
    if (deb.rc === 0) parseDpkg(s.get('debpkg')?.out ?? '', st.packages);
  }
  return st;
}
