// /etc/os-release -> distribution facts with Ansible's names (Debian, Fedora, RedHat, ...).
import { ProbeParseError } from '../errors.js';
import type { FactProbe } from './types.js';
import type { ProbeOutput } from '../probe/types.js';

export interface OsRelease {
  id: string;
  idLike: string[];
  name: string;
  version: string;
  codename: string;
  prettyName: string;
  /** /etc/debian_version's minor number (12.15 -> 15), Ansible's ansible_distribution_minor_version on Debian. */
  debianMinor?: string;
}

const DEBIAN_MARK = '@@debian_version';

export function parseOsRelease(out: ProbeOutput): OsRelease {
  if (out.rc !== 0) throw new ProbeParseError(`cannot read /etc/os-release (rc=${out.rc})`, out.stdout);
  const kv: Record<string, string> = {};
  const [osRelease = '', debianVersion = ''] = out.stdout.split(`${DEBIAN_MARK}\n`);
  for (const line of osRelease.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) kv[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, '$2').replace(/\\(["$`\\])/g, '$1');
  }
  if (!kv.ID && !kv.NAME) throw new ProbeParseError('/etc/os-release has neither ID nor NAME', out.stdout);
  return {
    id: kv.ID ?? '',
    idLike: (kv.ID_LIKE ?? '').split(/\s+/).filter(Boolean),
    name: kv.NAME ?? kv.ID ?? '',
    version: kv.VERSION_ID ?? '',
    codename: kv.VERSION_CODENAME ?? '',
    prettyName: kv.PRETTY_NAME ?? '',
    ...(/(\d+)\.(\d+)/.exec(debianVersion) ? { debianMinor: /(\d+)\.(\d+)/.exec(debianVersion)![2] } : {}),
  };
}

export const osReleaseFact: FactProbe<OsRelease> = {
  id: 'os_release',
  command: `cat /etc/os-release && { echo ${DEBIAN_MARK}; cat /etc/debian_version 2>/dev/null; true; }`,
  parse: parseOsRelease,
};

const DISTRIBUTION: Record<string, string> = {
  debian: 'Debian', ubuntu: 'Ubuntu', fedora: 'Fedora', rhel: 'RedHat', centos: 'CentOS', rocky: 'Rocky',
  almalinux: 'AlmaLinux', ol: 'OracleLinux', amzn: 'Amazon', opensuse: 'openSUSE', sles: 'SLES', arch: 'Archlinux', alpine: 'Alpine',
};
const FAMILY: Record<string, string> = { debian: 'Debian', ubuntu: 'Debian', rhel: 'RedHat', fedora: 'RedHat', centos: 'RedHat', suse: 'Suse', arch: 'Archlinux', alpine: 'Alpine' };

export function distributionName(os: OsRelease): string {
  return DISTRIBUTION[os.id] ?? os.name;
}

export function osFamily(os: OsRelease): string {
  for (const id of [os.id, ...os.idLike]) if (FAMILY[id]) return FAMILY[id]!;
  return distributionName(os);
}
