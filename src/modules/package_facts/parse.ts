// Pure parser of package_facts' read: Ansible's shapes (module_utils/facts/packages.py get_packages):
// name -> list of installed versions; apt {name, version, arch, category, origin, source},
// rpm {name, version, release, epoch, arch, source}.
import { ProbeParseError } from '../../errors.js';
import type { ProbeOutput } from '../../probe/types.js';
import { splitSections } from '../../probe/sections.js';

export type PackageEntry = Record<string, string | number | null>;

export interface PackageFactsState {
  /** The managers whose tool the host has, in the order asked. */
  found: string[];
  apt: PackageEntry[];
  rpm: PackageEntry[];
}

/** apt-cache policy without names: each index file's text -> its Release Origin ('' for dpkg's status). */
function indexOrigins(out: string): Map<string, string> {
  const origins = new Map<string, string>();
  let file: string | undefined;
  for (const line of out.split('\n')) {
    const f = /^ -?\d+ (.+)$/.exec(line);
    if (f) {
      file = f[1];
      origins.set(file, '');
      continue;
    }
    const rel = /^\s+release (.*)$/.exec(line);
    if (rel && file) origins.set(file, /(?:^|,)o=([^,]*)/.exec(rel[1])?.[1] ?? '');
  }
  return origins;
}

/** apt-cache policy NAMES: per package, the first index file listed under its installed (***) version. */
function installedIndex(out: string): Map<string, string> {
  const first = new Map<string, string>();
  let pkg: string | undefined;
  let inInstalled = false;
  for (const line of out.split('\n')) {
    const head = /^(\S+):$/.exec(line);
    if (head) [pkg, inInstalled] = [head[1], false];
    else if (/^ \*\*\* /.test(line)) inInstalled = true;
    else if (/^ {5}\S/.test(line)) inInstalled = false;
    else if (inInstalled && pkg && !first.has(pkg)) {
      const f = /^\s+-?\d+ (.+)$/.exec(line);
      if (f) first.set(pkg, f[1]);
    }
  }
  return first;
}

/** apt-cache show's records: "pkg\tarch\tversion" -> section. */
function cacheSections(out: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [pkg, arch, version, sec] = line.split('\t');
    if (sec !== undefined && sec !== '') m.set(`${pkg}\t${arch}\t${version}`, sec);
  }
  return m;
}

function parseApt(native: string, dpkg: string, files: string, policy: string, shown: string): PackageEntry[] {
  const sections = cacheSections(shown);
  const origins = indexOrigins(files);
  const index = installedIndex(policy);
  const out: PackageEntry[] = [];
  for (const line of dpkg.split('\n')) {
    const [status, pkg, version, arch, category] = line.split('\t');
    const name = arch === native || arch === 'all' ? pkg : `${pkg}:${arch}`;
    // python-apt's is_installed: a current version, which dpkg's not-installed / config-files lack.
    if (pkg === undefined || status === 'not-installed' || status === 'config-files') continue;
    const file = index.get(name);
    out.push({ name, version, arch, category: sections.get(`${pkg}\t${arch}\t${version}`) ?? category ?? '', origin: file === undefined ? '' : (origins.get(file) ?? ''), source: 'apt' });
  }
  return out;
}

const none = (v: string | undefined) => (v === undefined || v === '(none)' ? null : v);

function parseRpm(text: string): PackageEntry[] {
  return text.split('\n').filter((l) => l.includes('\t')).map((l) => {
    const [name, version, release, epoch, arch] = l.split('\t');
    const e = none(epoch);
    return { name, version: none(version), release: none(release), epoch: e === null ? null : Number(e), arch: none(arch), source: 'rpm' };
  });
}

export function parsePackageFacts(out: ProbeOutput): PackageFactsState {
  const found = [...out.stdout.matchAll(/^::has (\w+)$/gm)].map((m) => m[1]);
  const { sections } = splitSections(out.stdout);
  const st: PackageFactsState = { found, apt: [], rpm: [] };
  if (found.includes('apt')) {
    const dpkg = sections.get('dpkg');
    if (!dpkg || dpkg.rc !== 0) throw new ProbeParseError(`package_facts: dpkg-query failed: ${dpkg?.out ?? 'no output'}`, out.stdout);
    st.apt = parseApt((sections.get('native')?.out ?? '').trim(), dpkg.out, sections.get('files')?.out ?? '', sections.get('policy')?.out ?? '', sections.get('sections')?.out ?? '');
  }
  if (found.includes('rpm')) {
    const rpm = sections.get('rpm');
    if (!rpm || rpm.rc !== 0) throw new ProbeParseError(`package_facts: rpm -qa failed: ${rpm?.out ?? 'no output'}`, out.stdout);
    st.rpm = parseRpm(rpm.out);
  }
  return st;
}
