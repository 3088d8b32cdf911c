// gather_subset, as Ansible spells it: `min` (always, unless `!min`) plus any of `network`,
// `hardware`, `all`; `!name` leaves one out. hostwire's own facts (NetworkManager, Open vSwitch,
// firewalld: the costly reads) come with `all` only. A smaller subset means fewer reads per host.
import { BadInputError, type SourceLoc } from '../errors.js';
import { defaultRouteV4Fact, defaultRouteV6Fact } from './default-routes.js';
import { firewalldFact } from './firewalld.js';
import { hostnameFact } from './hostname.js';
import { interfacesFact } from './interfaces.js';
import { kernelFact } from './kernel.js';
import { memoryFact } from './memory.js';
import { networkManagerFact } from './network-manager.js';
import { nprocFact } from './nproc.js';
import { osReleaseFact } from './os-release.js';
import { ovsFact } from './ovs.js';
import { pkgMgrFact } from './pkg-mgr.js';
import { systemdFact } from './systemd.js';
import type { FactProbe } from './types.js';
import { vcpusFact } from './cpus.js';
import { fqdnFact } from './fqdn.js';
import { localFactsFact } from './local-facts.js';
import { pythonFact } from './python.js';
import { platformFact } from './platform.js';

const SUBSETS: Record<string, readonly FactProbe<unknown>[]> = {
  min: [osReleaseFact, kernelFact, platformFact, hostnameFact, systemdFact, pkgMgrFact, pythonFact, fqdnFact, localFactsFact],
  network: [interfacesFact, defaultRouteV4Fact, defaultRouteV6Fact],
  hardware: [nprocFact, memoryFact, vcpusFact],
  hostwire: [networkManagerFact, ovsFact, firewalldFact],
  // Ansible's virtual facts have no counterpart here; accepted so Ansible playbooks load.
  virtual: [],
};

// Ansible's own subset names (its fact collectors, module_utils/facts/default_collectors.py) -> the
// hostwire reads that give those facts; a collector hostwire has no facts for reads nothing (accepted so
// content such as linux-system-roles' `!all,!min,distribution,os_family` runs).
const ANSIBLE_SUBSETS: Record<string, readonly FactProbe<unknown>[]> = {
  ...Object.fromEntries(['distribution', 'distribution_major_version', 'distribution_release', 'distribution_version', 'os_family', 'lsb'].map((n) => [n, [osReleaseFact]])),
  ...Object.fromEntries(['kernel', 'kernel_version', 'architecture', 'machine', 'system', 'machine_id'].map((n) => [n, [kernelFact, platformFact]])),
  platform: [kernelFact, platformFact, hostnameFact, fqdnFact],
  service_mgr: [systemdFact],
  pkg_mgr: [pkgMgrFact],
  ...Object.fromEntries(['python', 'python_version'].map((n) => [n, [pythonFact]])),
  local: [localFactsFact],
  ...Object.fromEntries(['interfaces', 'default_ipv4', 'default_ipv6', 'all_ipv4_addresses', 'all_ipv6_addresses'].map((n) => [n, SUBSETS.network!])),
  ...Object.fromEntries(['processor', 'processor_cores', 'processor_count'].map((n) => [n, [nprocFact, vcpusFact]])),
  ...Object.fromEntries(['apparmor', 'caps', 'chroot', 'cmdline', 'date_time', 'devices', 'dns', 'effective_group_ids', 'effective_user_id', 'env',
    'facter', 'fibre_channel_wwn', 'fips', 'is_chroot', 'iscsi', 'loadavg', 'machine_id', 'mounts', 'nvme', 'ohai', 'real_user_id', 'selinux',
    'ssh_host_key_dsa_public', 'ssh_host_key_ecdsa_public', 'ssh_host_key_ed25519_public', 'ssh_host_key_rsa_public', 'ssh_host_pub_keys',
    'ssh_pub_keys', 'system_capabilities', 'system_capabilities_enforced', 'user', 'user_dir', 'user_gecos', 'user_gid', 'user_id', 'user_shell',
    'user_uid', 'virtualization_role', 'virtualization_tech_guest', 'virtualization_tech_host', 'virtualization_type'].map((n) => [n, []])),
};
/** Ansible's valid_subsets on Linux (every collector's name and fact ids), as its "Bad subset" message lists them. */
const ANSIBLE_VALID = [...new Set(['network', 'hardware', 'virtual', ...Object.keys(ANSIBLE_SUBSETS)])].sort();

/** ansible-core 2.14's words for adding an unknown subset (module_utils/facts/collector.py get_collector_names). */
export const badSubsetMessage = (w: string) => `Bad subset '${w}' given to Ansible. gather_subset options allowed: all, ${ANSIBLE_VALID.join(', ')}`;
const idsOf = (names: Iterable<string>) => new Set([...names].flatMap((n) => (SUBSETS[n] ?? ANSIBLE_SUBSETS[n] ?? []).map((p) => p.id)));

/**
 * The fact probes ids for a gather_subset value (a list or a comma-separated string), as Ansible's
 * get_collector_names (module_utils/facts/collector.py) picks them: min plus every addition, less the
 * exclusions not also named explicitly - so order does not matter, `!all` keeps min (only `!min` drops
 * it), and excluding an unknown subset is ignored (adding one is an error). Ansible's finer names
 * (distribution, default_ipv4, ...) count as the reads that give their facts; `hostwire` (hostwire's own
 * costly facts) is accepted beside them.
 */
export function factIdsFor(subset: unknown, loc?: SourceLoc): Set<string> {
  const words = (Array.isArray(subset) ? subset : String(subset ?? 'all').split(','))
    .map((w) => String(w).trim()).filter(Boolean);
  const groups = Object.keys(SUBSETS);
  const added = new Set<string>(['min']);
  const excluded = new Set<string>();
  const explicit = new Set<string>();
  for (const w of words.length ? words : ['all']) {
    if (w === 'all') groups.forEach((g) => added.add(g));
    else if (w === '!all') groups.filter((g) => g !== 'min').forEach((g) => excluded.add(g));
    else if (w.startsWith('!')) excluded.add(w.slice(1));
    else if (w === 'min' || SUBSETS[w] || ANSIBLE_SUBSETS[w]) {
      if (w !== 'min') explicit.add(w);
      added.add(w);
    } else throw new BadInputError(badSubsetMessage(w), loc);
  }
  const keep = idsOf(explicit);
  const drop = [...idsOf(excluded)].filter((id) => !keep.has(id));
  const ids = idsOf(added);
  for (const id of drop) ids.delete(id);
  return ids;
}
