// Pure parser of the package probe: the package manager found, what dpkg/rpm says is installed
// and (for state: latest) the candidate versions apt-cache policy knows.
import { ProbeParseError } from '../../errors.js';
import type { ProbeOutput } from '../../probe/types.js';

export type PkgMgr = 'apt' | 'dnf' | 'yum';

export interface PackageState {
  mgr: PkgMgr | 'none';
  /** The tool of a manager asked for by name (use, hostwire_pkg_mgr) that the host lacks. */
  missing?: string;
  /** Installed packages by name -> version. */
  installed: Map<string, string>;
  /** apt: name -> candidate version ('(none)' when apt knows no installable version). */
  candidates: Map<string, string>;
  /** dnf/yum: names with an upgrade available. */
  upgrades: Set<string>;
}

export function parsePackages(out: ProbeOutput): PackageState {
  const lines = out.stdout.split('\n');
  const mgrLine = lines.find((l) => l.startsWith('mgr:'));
  if (!mgrLine) throw new ProbeParseError('package probe printed no package manager line', out.stdout);
  const st: PackageState = { mgr: mgrLine.slice(4) as PackageState['mgr'], installed: new Map(), candidates: new Map(), upgrades: new Set() };
  const missing = lines.find((l) => l.startsWith('missing:'));
  if (missing) st.missing = missing.slice(8);
  let policyPkg: string | undefined;
  for (const l of lines) {
    if (l.startsWith('pkg:')) {
      // "<name> <want> <error> <status> <version>": dpkg's Status field; rpm prints the same shape.
      const [name, , , status, version] = l.slice(4).split(' ');
      if (status === 'installed') st.installed.set(name, version ?? '');
    } else if (l.startsWith('policy ')) {
      const body = l.slice(7);
      const head = /^(\S+):$/.exec(body);
      if (head) policyPkg = head[1];
      const cand = /^\s+Candidate: (\S+)/.exec(body);
      if (cand && policyPkg) st.candidates.set(policyPkg, cand[1]);
    } else if (l.startsWith('upgrade ')) {
      const name = l.slice(8).split(/\s+/)[0].replace(/\.[^.]+$/, '');
      if (name && !/^(Available|Last)/.test(name)) st.upgrades.add(name);
    }
  }
  return st;
}
