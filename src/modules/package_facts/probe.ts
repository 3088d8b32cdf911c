// package_facts' read: the installed packages of the managers asked for, from their own tools
// (ansible-core 2.14 reads them through python-apt / python3-rpm, which hosts often lack: there the
// module fails, hostwire answers). apt: dpkg-query's installed packages, and apt-cache policy for the
// origin of each installed version (python-apt's origins[0]: the first index holding it).
import { section } from '../../probe/sections.js';
import type { Probe } from '../../probe/types.js';
import { parsePackageFacts, type PackageFactsState } from './parse.js';

export type BuiltManager = 'apt' | 'rpm';

const DPKG = "dpkg-query -W -f='${db:Status-Status}\\t${Package}\\t${Version}\\t${Architecture}\\t${Section}\\n'";
// python-apt's names: a foreign architecture's package is name:arch.
const INSTALLED_NAMES =
  `${DPKG} | awk -F '\\t' -v native="$(dpkg --print-architecture)" ` +
  `'$1 != "not-installed" && $1 != "config-files" { print ($4 == native || $4 == "all") ? $2 : $2 ":" $4 }'`;
const APT_POLICY = `n=$(${INSTALLED_NAMES}); set -f; LC_ALL=C apt-cache policy -- $n`;
// The section apt's cache holds for each installed version (python-apt's Version.section): its index's.
const INSTALLED_PAIRS = `${DPKG} | awk -F '\\t' '$1 != "not-installed" && $1 != "config-files" { print $2 ":" $4 "=" $3 }'`;
const APT_SECTIONS =
  `p=$(${INSTALLED_PAIRS}); set -f; LC_ALL=C apt-cache show -- $p 2>/dev/null | ` +
  `awk '/^Package: /{p=$2} /^Architecture: /{a=$2} /^Version: /{v=$2} /^Section: /{s=$2} /^$/{ if (p != "") print p "\\t" a "\\t" v "\\t" s; p=a=v=s="" }'`;
const RPM = "rpm -qa --qf '%{NAME}\\t%{VERSION}\\t%{RELEASE}\\t%{EPOCH}\\t%{ARCH}\\n'";

const TOOL: Record<BuiltManager, string> = { apt: 'dpkg-query', rpm: 'rpm' };

function managerSections(m: BuiltManager): string {
  const body =
    m === 'apt'
      ? [section('native', 'dpkg --print-architecture'), section('dpkg', DPKG), section('files', 'LC_ALL=C apt-cache policy'), section('policy', APT_POLICY), section('sections', APT_SECTIONS)].join('\n  ')
      : section('rpm', RPM);
  return `if command -v ${TOOL[m]} >/dev/null 2>&1; then echo '::has ${m}'\n  ${body}\nfi`;
}

export function packageFactsProbe(managers: readonly BuiltManager[]): Probe<PackageFactsState> {
  return { command: `(${managers.map(managerSections).join('\n')})`, parse: parsePackageFacts };
}
