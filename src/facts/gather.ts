// All facts of a host in one remote exec.
import type { Transport } from '../transports/transport.js';
import { buildBatch, splitBatch, type BatchOutput } from './batch.js';
import { FACT_COMMANDS } from './commands.js';
import { parseAddresses, parseDefaultRoute, parseFirewalld, parseLines, parseMeminfo, parseNetworkManager, parseOsRelease, parseOvs } from './parse.js';

export type Facts = Record<string, unknown>;

export function factsScript(): string {
  return buildBatch(Object.entries(FACT_COMMANDS).map(([id, command]) => ({ id, command })));
}

export function parseFacts(parts: Map<string, BatchOutput>): Facts {
  const out = (id: string) => parts.get(id)?.stdout ?? '';
  const kernel = parseLines(out('kernel'));
  const host = parseLines(out('hostname'));
  const addresses = parseAddresses(out('addresses'));
  return {
    ...parseOsRelease(out('os_release')),
    ansible_kernel: kernel[0] ?? '',
    ansible_architecture: kernel[1] ?? '',
    ansible_hostname: (host[0] ?? '').split('.')[0],
    ansible_fqdn: host[1] ?? host[0] ?? '',
    ansible_nodename: host[0] ?? '',
    ansible_processor_nproc: Number(out('nproc').trim()) || 1,
    ansible_processor_vcpus: Number(out('nproc').trim()) || 1,
    ...parseMeminfo(out('meminfo')),
    ...addresses,
    ansible_default_ipv4: parseDefaultRoute(out('route4'), addresses, 4) ?? {},
    ansible_default_ipv6: parseDefaultRoute(out('route6'), addresses, 6) ?? {},
    hostwire_systemd: out('systemd').trim() === 'yes',
    ansible_service_mgr: out('systemd').trim() === 'yes' ? 'systemd' : 'unknown',
    ...parseNetworkManager(out('nm')),
    ...parseOvs(out('ovs')),
    ...parseFirewalld(out('firewalld')),
    ansible_pkg_mgr: (out('pkg_mgr').trim() || 'unknown').replace('apt-get', 'apt'),
    hostwire_pkg_mgr: out('pkg_mgr').trim() || 'unknown',
  };
}

export async function gatherFacts(t: Transport): Promise<Facts> {
  const r = await t.exec(factsScript());
  return parseFacts(splitBatch(r.stdout));
}
