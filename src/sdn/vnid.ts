// VNIDs of OpenShift SDN's multitenant plugin, as the reference does it:
// https://github.com/openshift/sdn/blob/master/pkg/network/master/vnids.go (allocateNetID: the `default`
// namespace gets GlobalVNID 0 and may talk to every project; every other one gets a free id from
// MinVNID 10 to MaxVNID 2^24-1). The reference allocation map (k8s allocator.NewAllocationMap) scans from a
// random offset. With no `rand` given, this scans from the lowest id, which is predictable.
import { SdnInputError, SubnetsExhaustedError } from './errors.js';

export const GLOBAL_VNID = 0;
export const MIN_VNID = 10;
export const MAX_VNID = 2 ** 24 - 1;
/** Projects that share VNID 0 (the reference gives it to `default` only; admins may add more). */
export const ADMIN_PROJECTS = ['default'];

export interface VnidOptions {
  /** Projects that get the global VNID 0. */
  globalProjects?: string[];
  rand?: () => number;
}

/** The VNID for `project`: its existing one, 0 for the admin project, else a free id in 10..2^24-1. */
export function allocateVnid(project: string, existing: ReadonlyMap<string, number>, o: VnidOptions = {}): number {
  if (!project) throw new SdnInputError('project: expected a project (namespace) name, got an empty string');
  const have = existing.get(project);
  if (have !== undefined) return have;
  if ((o.globalProjects ?? ADMIN_PROJECTS).includes(project)) return GLOBAL_VNID;
  const used = new Set<number>();
  for (const id of existing.values()) {
    if (id !== GLOBAL_VNID && (id < MIN_VNID || id > MAX_VNID)) throw new SdnInputError(`VNID ${id} is outside ${MIN_VNID}..${MAX_VNID} and is not the global VNID 0`);
    used.add(id);
  }
  const size = MAX_VNID - MIN_VNID + 1;
  const start = o.rand ? Math.floor(o.rand() * size) % size : 0;
  for (let i = 0; i < size; i++) {
    const id = MIN_VNID + ((start + i) % size);
    if (!used.has(id)) return id;
  }
  throw new SubnetsExhaustedError(`no VNID left: all ${size} ids from ${MIN_VNID} to ${MAX_VNID} are in use`);
}
