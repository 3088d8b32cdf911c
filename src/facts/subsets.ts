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

const SUBSETS: Record<string, readonly FactProbe<unknown>[]> = {
  min: [osReleaseFact, kernelFact, hostnameFact, systemdFact, pkgMgrFact, pythonFact, fqdnFact, localFactsFact],
  network: [interfacesFact, defaultRouteV4Fact, defaultRouteV6Fact],
  hardware: [nprocFact, memoryFact, vcpusFact],
  hostwire: [networkManagerFact, ovsFact, firewalldFact],
  // Ansible's virtual facts have no counterpart here; accepted so Ansible playbooks load.
  virtual: [],
};
const NAMES = ['all', ...Object.keys(SUBSETS)];

/**
 * The fact probes ids for a gather_subset value (a list or a comma-separated string), as Ansible's
 * get_collector_names (module_utils/facts/collector.py) picks them: min plus every addition, less the
 * exclusions not also named explicitly - so order does not matter, `!all` keeps min (only `!min` drops
 * it), and excluding an unknown subset is ignored (adding one is an error).
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
    else if (w === 'min' || SUBSETS[w]) {
      if (w !== 'min') explicit.add(w);
      added.add(w);
    } else throw new BadInputError(`gather_subset: unknown subset '${w}', expected one of: ${NAMES.join(', ')} (or !name)`, loc);
  }
  const wanted = [...added].filter((g) => !excluded.has(g) || explicit.has(g));
  return new Set(wanted.flatMap((n) => SUBSETS[n]!.map((p) => p.id)));
}
