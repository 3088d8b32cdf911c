// Operations on a lab that is up: list, reboot a host, capabilities, find a host.
import { BadInputError } from '../errors.js';
import { hostRunning } from './health.js';
import { checkLabName, DEFAULT_LAB, parseHostName } from './names.js';
import { bootHost } from './nspawn.js';
import { ipv6OnlyAddress, resetHostNetwork } from './network.js';
import { listLabNames, readState, writeState, type HostKind, type HostState, type LabCapabilities, type LabState } from './state.js';
import { killHost, removeCgroupTree } from './teardown.js';
import { waitForHost, type HostReadiness } from './wait.js';
import { startVm } from './vm/qemu.js';
import { VM_TIMEOUT_MS, waitForVm } from './vm/ready.js';
import { vmIpv6OnlyAddress } from './vm/ipv6-only.js';

export interface LabSummary {
  name: string;
  /** up: every host running; stale: state left by a crash (`lab down` cleans it); broken: no readable state. */
  status: 'up' | 'partial' | 'stale' | 'broken';
  subnet?: string;
  hosts: { name: string; ip: string; running: boolean; kind: HostKind }[];
}

export async function labList(): Promise<LabSummary[]> {
  const out: LabSummary[] = [];
  for (const name of await listLabNames()) {
    const state = await readState(name);
    if (!state) {
      out.push({ name, status: 'broken', hosts: [] });
      continue;
    }
    const hosts = await Promise.all(state.hosts.map(async (h) => ({ name: h.name, ip: h.ip, running: await hostRunning(state, h), kind: h.kind ?? 'nspawn' })));
    const up = hosts.filter((h) => h.running).length;
    const status = up === hosts.length && up > 0 ? 'up' : up ? 'partial' : 'stale';
    out.push({ name, status, subnet: state.subnet.cidr, hosts });
  }
  return out;
}

/** The lab state, or a BadInputError saying how to create it. */
export async function requireLab(name = DEFAULT_LAB): Promise<LabState> {
  const state = await readState(checkLabName(name));
  if (!state) throw new BadInputError(`no lab named "${name}"; create it with \`hostwire lab up --name ${name}\``);
  return state;
}

/** Find HOST in lab `name` (default: the lab its name points to, `lab-2` -> lab "lab"). */
export async function requireHost(host: string, name?: string): Promise<{ state: LabState; host: HostState }> {
  const state = await requireLab(name ?? parseHostName(host)?.lab ?? DEFAULT_LAB);
  const h = state.hosts.find((x) => x.name === host || x.ip === host || String(x.index) === host);
  if (!h) throw new BadInputError(`lab "${state.name}" has no host "${host}"; hosts: ${state.hosts.map((x) => x.name).join(', ')}`);
  return { state, host: h };
}

/** The lab-wide probe (the machine's kernel), or with `host` that host's own: a VM host's kernel differs. */
export async function labCapabilities(name = DEFAULT_LAB, host?: string): Promise<LabCapabilities> {
  if (host === undefined) return (await requireLab(name)).capabilities;
  const { state, host: h } = await requireHost(host, name);
  return h.capabilities ?? state.capabilities;
}

/** Power cycle keeping the disk: SIGKILL the container (or qemu), boot it again on the same overlay, wait for ready. */
export async function labReboot(host: string, options: { name?: string; timeoutMs?: number } = {}): Promise<HostReadiness> {
  const { state, host: h } = await requireHost(host, options.name);
  const started = Date.now();
  // A VM's seed unit leaves eth0 without the lab's IPv4 under the marker: the host is waited for at its own address.
  const vmV6only = h.kind === 'vm' ? await vmIpv6OnlyAddress(state, h) : undefined;
  await killHost(state.name, h);
  for (const c of h.cgroups) await removeCgroupTree(c);
  if (h.kind === 'vm') {
    Object.assign(h, await startVm(state, h));
    await writeState(state);
    const at = vmV6only ? { ...h, ip: vmV6only } : h;
    const ready = await waitForVm(state, at, started + (options.timeoutMs ?? VM_TIMEOUT_MS), started);
    h.capabilities = at.capabilities;
    await writeState(state);
    return ready;
  }
  const v6only = await ipv6OnlyAddress(h);
  await resetHostNetwork(state, h, state.rootfs, !v6only);
  Object.assign(h, await bootHost(h));
  await writeState(state);
  return waitForHost(state, v6only ? { ...h, ip: v6only } : h, started + (options.timeoutMs ?? 60_000), started);
}
