// Gathers all facts in ONE remote exec: the fact probes are batched, split back by id and
// parsed; a fact that fails to parse is recorded in hostwire_fact_errors instead of failing the host.
import { CommandError } from '../errors.js';
import type { Transport } from '../transports/transport.js';
import { buildBatch, splitBatch } from '../probe/batch.js';
import { defaultRouteV4Fact, defaultRouteV6Fact } from './default-routes.js';
import type { Facts } from './facts.js';
import { allIpv4, allIpv6, ansibleDefault, ansibleInterface } from './ansible-shape.js';
import { vcpusFact } from './cpus.js';
import { fqdnFact } from './fqdn.js';
import { localFactsFact } from './local-facts.js';
import { pythonFact } from './python.js';
import { ansiblePlatform, platformFact, type PlatformFacts } from './platform.js';
import { firewalldFact } from './firewalld.js';
import { hostnameFact } from './hostname.js';
import { interfacesFact, type InterfaceFacts } from './interfaces.js';
import { kernelFact } from './kernel.js';
import { memoryFact } from './memory.js';
import { networkManagerFact } from './network-manager.js';
import { nprocFact } from './nproc.js';
import { distributionName, osFamily, osReleaseFact, type OsRelease } from './os-release.js';
import { ovsFact } from './ovs.js';
import { familyPkgMgr, pkgMgrFact } from './pkg-mgr.js';
import { systemdFact } from './systemd.js';
import type { FactProbe } from './types.js';
import type { ProbeOutput } from '../probe/types.js';

export const FACT_PROBES: readonly FactProbe<unknown>[] = [
  osReleaseFact, kernelFact, hostnameFact, nprocFact, memoryFact, interfacesFact, defaultRouteV4Fact,
  defaultRouteV6Fact, systemdFact, networkManagerFact, ovsFact, firewalldFact, pkgMgrFact,
  vcpusFact, pythonFact, fqdnFact, localFactsFact, platformFact,
];

/** Pure: turn the split batch output into Facts. */
export function assembleFacts(outputs: Map<string, ProbeOutput>, gathered?: Set<string>): Facts {
  const errors: string[] = [];
  const read = <T>(p: FactProbe<T>, fallback: T): T => {
    if (gathered && !gathered.has(p.id)) return fallback;
    const o = outputs.get(p.id);
    if (!o) { errors.push(`${p.id}: no output (the batch was cut short)`); return fallback; }
    try { return p.parse(o); } catch (e) { errors.push(`${p.id}: ${(e as Error).message}`); return fallback; }
  };
  const os = read(osReleaseFact, { id: '', idLike: [], name: '', version: '', codename: '', prettyName: '' });
  const names = read(hostnameFact, { nodename: '', hostname: '' });
  const ifaces = read(interfacesFact, []);
  const byName = new Map(ifaces.map((i) => [i.device, i]));
  const sd = read(systemdFact, { systemd: false });
  const pkg = familyPkgMgr(read(pkgMgrFact, 'unknown'), osFamily(os));
  const facts: Facts = {
    ansible_hostname: names.hostname,
    ansible_nodename: names.nodename,
    ansible_distribution: distributionName(os),
    ansible_distribution_version: os.version,
    ansible_distribution_major_version: os.version.split('.')[0] ?? '',
    ansible_distribution_release: os.codename,
    ansible_os_family: osFamily(os),
    ansible_kernel: read(kernelFact, ''),
    ansible_processor_nproc: read(nprocFact, 0),
    ansible_memtotal_mb: read(memoryFact, 0),
    ansible_default_ipv4: ansibleDefault(read(defaultRouteV4Fact, []), byName, 4),
    ansible_default_ipv6: ansibleDefault(read(defaultRouteV6Fact, []), byName, 6),
    ansible_interfaces: ifaces.map((i) => i.device),
    ansible_all_ipv4_addresses: allIpv4(ifaces),
    ansible_all_ipv6_addresses: allIpv6(ifaces),
    ...platformFacts(os, read),
    ansible_service_mgr: sd.systemd ? 'systemd' : sd.pid1 ?? 'unknown',
    ansible_pkg_mgr: pkg,
    hostwire_interfaces: Object.fromEntries(byName),
    hostwire_systemd: sd.systemd,
    hostwire_networkmanager: read(networkManagerFact, { present: false, running: false, plugins: [] }),
    hostwire_ovs: read(ovsFact, { present: false, running: false }),
    hostwire_firewalld: read(firewalldFact, { present: false, running: false, state: '' }),
    hostwire_pkg_mgr: pkg,
    hostwire_fact_errors: errors,
  };
  // Ansible's per-interface keys: dashes and dots become underscores (br-ex -> ansible_br_ex).
  for (const i of ifaces) facts[`ansible_${i.device.replace(/[^A-Za-z0-9_]/g, '_')}`] = ansibleInterface(i);
  // Facts outside gather_subset are left undefined (as in Ansible), not filled with empty values.
  if (gathered) for (const [key, probe] of FACT_KEYS) if (!gathered.has(probe)) delete (facts as unknown as Record<string, unknown>)[key];
  return facts;
}

type Read = <T>(p: FactProbe<T>, fallback: T) => T;

/** The facts beside the distribution's and the network's: CPUs, Python, fqdn, facts.d, the release file. */
function platformFacts(os: OsRelease, read: Read): Record<string, unknown> {
  const python = read(pythonFact, undefined);
  const debian = osFamily(os) === 'Debian';
  return {
    ...(os.debianMinor ? { ansible_distribution_minor_version: os.debianMinor } : {}),
    // Where distribution.py found the release: os-release, parsed as Debian's (Debian and Ubuntu).
    ...(debian ? { ansible_distribution_file_path: '/etc/os-release', ansible_distribution_file_variety: 'Debian', ansible_distribution_file_parsed: true } : {}),
    ansible_processor_vcpus: read(vcpusFact, 0),
    ...(python ? { ansible_python: python, ansible_python_version: python.version_info.slice(0, 3).join('.') } : {}),
    ...fqdnFacts(read(fqdnFact, '')),
    ...ansiblePlatform(read<PlatformFacts | undefined>(platformFact, undefined)),
    ansible_local: read(localFactsFact, {}),
  };
}

/** ansible_fqdn and Ansible's ansible_domain: the fqdn after its first label (platform.py). */
const fqdnFacts = (fqdn: string) => ({ ansible_fqdn: fqdn, ansible_domain: fqdn.split('.').slice(1).join('.') });

const FACT_KEYS: [string, string][] = [
  // min's own (gone only with !min, as Ansible's setup then returns none of them).
  ...['ansible_hostname', 'ansible_nodename'].map((k): [string, string] => [k, hostnameFact.id]),
  ...['', '_version', '_major_version', '_release'].map((k): [string, string] => [`ansible_distribution${k}`, osReleaseFact.id]),
  ['ansible_os_family', osReleaseFact.id], ['ansible_kernel', kernelFact.id], ['ansible_service_mgr', systemdFact.id],
  ['hostwire_systemd', systemdFact.id], ['ansible_pkg_mgr', pkgMgrFact.id], ['hostwire_pkg_mgr', pkgMgrFact.id],
  ['ansible_processor_vcpus', vcpusFact.id], ['ansible_fqdn', fqdnFact.id], ['ansible_domain', fqdnFact.id], ['ansible_local', localFactsFact.id],
  ['ansible_processor_nproc', nprocFact.id], ['ansible_memtotal_mb', memoryFact.id],
  ['ansible_default_ipv4', defaultRouteV4Fact.id], ['ansible_default_ipv6', defaultRouteV6Fact.id],
  ['ansible_interfaces', interfacesFact.id], ['ansible_all_ipv4_addresses', interfacesFact.id],
  ['ansible_all_ipv6_addresses', interfacesFact.id], ['hostwire_interfaces', interfacesFact.id],
  ['hostwire_networkmanager', networkManagerFact.id], ['hostwire_ovs', ovsFact.id], ['hostwire_firewalld', firewalldFact.id],
];

/** The shell script gathering every fact (one exec). */
export function factsScript(gathered?: Set<string>): string {
  return buildBatch(gathered ? FACT_PROBES.filter((p) => gathered.has(p.id)) : FACT_PROBES);
}

/** One exec; `gathered` (from gather_subset) narrows which facts are read. */
export async function gatherFacts(transport: Transport, gathered?: Set<string>): Promise<Facts> {
  const script = factsScript(gathered);
  const r = await transport.exec(script);
  if (r.code !== 0) {
    throw new CommandError({ command: 'gather facts', exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: transport.name });
  }
  return assembleFacts(splitBatch(r.stdout), gathered);
}
