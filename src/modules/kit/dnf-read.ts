// The dnf backend's read (dnf, yum and package share it): in one read-only snippet without starting
// Python, what ansible's dnf module asks of its installed-package query - for each spec, the installed
// packages it names (rpm -q: a name, name.arch, name-version[-release][.arch]; rpm -qa for a wildcard;
// a provide through --whatprovides) and, for a spec naming a version, the installed packages of its
// name (the "newer version installed" test). What repositories offer is dnf's to say when it runs.
import { ProbeParseError } from '../../errors.js';
import { need, readSections, section } from '../../probe/sections.js';
import type { ProbeOutput } from '../../probe/types.js';
import { shellQuote } from '../../transports/quote.js';
import type { Evr } from './rpm-version.js';

export interface RpmPackage extends Evr {
  name: string;
  arch: string;
}

export interface DnfState {
  hasDnf: boolean;
  /** rpm query word -> the installed packages it matched ([] when none). */
  installed: Map<string, RpmPackage[]>;
}

const FORMAT = '%{NAME}\\t%{EPOCHNUM}\\t%{VERSION}\\t%{RELEASE}\\t%{ARCH}\\n';
export const WILDCARD = /[*?[\]]/;
/** A spec dnf reads as a dependency relation ('name >= 1.0'): rpm -q cannot answer it, dnf does. */
export const RELATION = /\s(?:>=|<=|=|>|<)\s/;

/** dnf's own str(package): name-[epoch:]version-release.arch. */
export const nevra = (p: RpmPackage): string => `${p.name}-${p.epoch !== '0' && p.epoch !== '' ? `${p.epoch}:` : ''}${p.version}-${p.release}.${p.arch}`;

/** The shell of one query word: its installed packages, one tab-separated line each. */
function query(word: string): string {
  const q = shellQuote(word);
  if (WILDCARD.test(word)) return `rpm -qa --qf '${FORMAT}' -- ${q}`;
  return `rpm -q --qf '${FORMAT}' -- ${q} || rpm -q --whatprovides --qf '${FORMAT}' -- ${q}`;
}

/** The read of these query words (specs, and names a versioned spec names), each its own section. */
export function dnfReadCommand(words: string[]): string {
  const unique = [...new Set(words.filter((w) => !RELATION.test(w)))];
  const parts = [section('tool', 'command -v dnf'), ...unique.map((w, i) => `echo ${shellQuote(`::word ${i} ${w}`)}\n${section(`q${i}`, query(w))}`)];
  return `(${parts.join('\n')})`;
}

function parsePackages(out: string): RpmPackage[] {
  const found: RpmPackage[] = [];
  for (const line of out.split('\n')) {
    const f = line.split('\t');
    if (f.length !== 5 || !/^\d+$/.test(f[1])) continue;
    found.push({ name: f[0], epoch: f[1], version: f[2], release: f[3], arch: f[4] });
  }
  return found;
}

export function parseDnfRead(out: ProbeOutput): DnfState {
  const s = readSections(out.stdout);
  const st: DnfState = { hasDnf: need(s, 'tool', out.stdout).rc === 0, installed: new Map() };
  for (const m of out.stdout.matchAll(/^::word (\d+) (.*)$/gm)) {
    const q = need(s, `q${m[1]}`, out.stdout);
    const pkgs = parsePackages(q.out);
    // rpm says why it found nothing ("is not installed", "no package provides"); anything else is not a read.
    if (pkgs.length === 0 && q.out.trim() !== '' && !/is not installed|no package provides/.test(q.out)) {
      throw new ProbeParseError(`rpm query of '${m[2]}' failed: ${q.out.trim()}`, out.stdout);
    }
    st.installed.set(m[2], pkgs);
  }
  return st;
}
