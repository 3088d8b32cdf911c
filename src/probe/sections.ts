// A probe of several reads (the network modules', the OVS rows kind's) is one shell snippet printing labelled sections
// (`::sec name` ... `::rc N`) with stderr folded in, so a pure parser sees tools' errors too.
// A tool missing on the host becomes a clear failure naming the package to install.
import { HostwireError, ProbeParseError } from '../errors.js';
import { shellQuote } from '../transports/quote.js';

export interface Section {
  out: string;
  rc: number;
}

/** Shell text: run `command` as section `name`, stderr merged into stdout, then its exit code. */
export function section(name: string, command: string): string {
  return `echo '::sec ${name}'; { ${command} ; } 2>&1; echo "::rc $?"`;
}

/** Shell text: report `tool` as missing (checked before the sections that need it). */
export function requireTool(tool: string): string {
  return `command -v ${shellQuote(tool)} >/dev/null 2>&1 || echo '::missing ${tool}'`;
}

export function splitSections(stdout: string): { sections: Map<string, Section>; missing: string[] } {
  const sections = new Map<string, Section>();
  const missing: string[] = [];
  let name: string | undefined;
  let lines: string[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::(sec|rc|missing) (.*)$/.exec(line);
    if (m?.[1] === 'missing') missing.push(m[2]);
    else if (m?.[1] === 'sec') {
      name = m[2];
      lines = [];
    } else if (m?.[1] === 'rc' && name !== undefined) {
      sections.set(name, { out: lines.join('\n'), rc: Number(m[2]) });
      name = undefined;
    } else if (name !== undefined) lines.push(line);
  }
  return { sections, missing };
}

/** The package that ships each tool on Debian/Ubuntu (and RHEL where it differs). */
const PACKAGES: Record<string, string> = {
  'ovs-vsctl': 'openvswitch-switch (RHEL: openvswitch)',
  'ovs-ofctl': 'openvswitch-switch (RHEL: openvswitch)',
  nmcli: 'network-manager (RHEL: NetworkManager)',
  'firewall-cmd': 'firewalld',
  'firewall-offline-cmd': 'firewalld',
  ip: 'iproute2 (RHEL: iproute)',
  iptables: 'iptables',
  ip6tables: 'iptables',
  etcdctl: 'etcd-client (RHEL: etcd)',
};

export function missingToolError(tool: string, host?: string): HostwireError {
  return new HostwireError('command-failed', `${tool} not found on the host: install the package ${PACKAGES[tool] ?? tool}`, { host });
}

/** Splits the probe output and fails when a required tool is missing. */
export function readSections(stdout: string): Map<string, Section> {
  const { sections, missing } = splitSections(stdout);
  if (missing.length > 0) throw missingToolError(missing[0]);
  return sections;
}

/** A section that must be present (the probe always prints it). */
export function need(sections: Map<string, Section>, name: string, raw: string): Section {
  const s = sections.get(name);
  if (!s) throw new ProbeParseError(`probe output lacks section '${name}'`, raw);
  return s;
}
