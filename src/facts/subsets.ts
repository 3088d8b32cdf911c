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

/** The fact probes ids for a gather_subset value (a list or a comma-separated string). */
export function factIdsFor(subset: unknown, loc?: SourceLoc): Set<string> {
  const words = (Array.isArray(subset) ? subset : String(subset ?? 'all').split(','))
    .map((w) => String(w).trim()).filter(Boolean);
  const wanted = new Set<string>(['min']);
  for (const w of words.length ? words : ['all']) {
    const neg = w.startsWith('!');
    const name = neg ? w.slice(1) : w;
    if (!NAMES.includes(name)) throw new BadInputError(`gather_subset: unknown subset '${name}', expected one of: ${NAMES.join(', ')} (or !name)`, loc);
    const names = name === 'all' ? Object.keys(SUBSETS) : [name];
    for (const n of names) (neg ? wanted.delete(n) : wanted.add(n));
  }
  return new Set([...wanted].flatMap((n) => SUBSETS[n]!.map((p) => p.id)));
}
