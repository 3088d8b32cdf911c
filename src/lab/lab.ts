// The lab's lifecycle: up (rootfs, network, identities, boot, wait), down, reboot.
import { mkdir } from 'node:fs/promises';
import { BadInputError } from '../errors.js';
import { probeCapabilities } from './capabilities.js';
import { labHealthy } from './health.js';
import { createLabKey, writeHostIdentity, writeKnownHosts } from './host-files.js';
import { cgroupDirs, checkLabName, DEFAULT_LAB, hostName, hostNetns, LAB_BRIDGE, labDir, labNetns, labTap, labVeth } from './names.js';
import { createHostNetwork, createLabNetwork } from './network.js';
import { bootHost, mountOverlay } from './nspawn.js';
import { ensureRootfs } from './rootfs.js';
import { ensureNmOvs, installNmOvs } from './nm-ovs.js';
import { listLabNames, readState, writeState, type HostKind, type HostState, type LabState } from './state.js';
import { allocateSubnet, hostIp } from './subnet.js';
import { teardownLab, type TeardownReport } from './teardown.js';
import { waitForHost, type HostReadiness } from './wait.js';
import { ensureVmImage, type VmImage } from './vm/image.js';
import { prepareVmHost, type VmOptions } from './vm/host.js';
import { checkVmOptions, hostKinds } from './vm/kinds.js';
import { startVm } from './vm/qemu.js';
import { VM_TIMEOUT_MS, waitForVm } from './vm/ready.js';
import { checkNics, type Wire } from './vm/nics.js';
import { OWNER_ENV, ownerOf, refuseForeignLab, requestedOwner, selfPids, startWatchdog, sweepOrphanedLabs } from './owner.js';

export interface LabUpOptions {
  name?: string;
  /** Default 3, or the length of `kinds`. */
  hosts?: number;
  /** The last N hosts are VM hosts (qemu TCG guests with their own kernel); default 0. */
  vms?: number;
  /** Kind per host, `<lab>-1` first; overrides `vms`. */
  kinds?: HostKind[];
  /** Memory (default 1024 MB) and vCPUs (default 2) per VM host. */
  vm?: VmOptions;
  /** Point-to-point links between extra NICs of two VM hosts (LACP partners: a bridge drops LACP). */
  wires?: Wire[];
  /**
   * The lab lives only as long as this process: a watchdog removes it when the process ends (killed, timed
   * out). Default: HOSTWIRE_LAB_OWNER_PID (the test runner's workers set it); null: none.
   */
  ownerPid?: number | null;
  /** Readiness limit for VM hosts, default 600 s (timeoutMs when that is larger). */
  vmTimeoutMs?: number;
  /** Extra Debian packages for the rootfs (a new list means a new cached rootfs). */
  packages?: string[];
  /**
   * nspawn hosts get NetworkManager with its OVS device plugin (Debian's is built without it): the same
   * version rebuilt from Debian's source with ovs on, in the host's overlay (nm-ovs.ts; built once per machine).
   */
  nmOvs?: boolean;
  /** Overall limit for booting and waiting (the rootfs build is not counted). Default 120 s. */
  timeoutMs?: number;
  onProgress?: (line: string) => void;
  /** Leave the half-made lab in place when `up` fails (for debugging); default: tear it down. */
  keepOnFailure?: boolean;
}

export interface LabUpResult {
  state: LabState;
  readiness: HostReadiness[];
  /** Hosts not `running` (degraded...), with their failed units. */
  degraded: HostReadiness[];
  rootfsBuilt: boolean;
  /** Whether the VM base image was built (undefined: no VM hosts). */
  vmImageBuilt?: boolean;
  /** Boot to ready, rootfs build excluded. */
  seconds: number;
}

export async function labUp(options: LabUpOptions = {}): Promise<LabUpResult> {
  const name = checkLabName(options.name ?? DEFAULT_LAB);
  const count = options.hosts ?? options.kinds?.length ?? 3;
  if (!Number.isInteger(count) || count < 1 || count > 50) throw new BadInputError(`--hosts ${count}: expected a whole number from 1 to 50`);
  const kinds = hostKinds(count, options);
  checkVmOptions(options.vm);
  checkNics(options.vm?.nics, options.wires ?? [], kinds);
  const ownerPid = options.ownerPid === null ? undefined : requestedOwner(options.ownerPid);
  const progress = options.onProgress ?? (() => {});
  // A lab another live process owns (a test run still booting it) is never replaced, healthy or not.
  await refuseForeignLab(name, 'brought up again', [...selfPids(), ownerPid]);
  const existing = await readState(name);
  if (existing && (await labHealthy(existing))) {
    throw new BadInputError(`lab "${name}" is already up (${existing.hosts.length} hosts); run \`hostwire lab down --name ${name}\` first`);
  }
  // Whatever a crashed run left behind (stale state, or pieces without state) goes first.
  const stale = await teardownLab(name);
  if (existing || stale.killed || stale.netns.length || stale.unmounted) progress(`removed stale lab ${name}`);
  for (const gone of await sweepOrphanedLabs(name)) progress(`removed lab ${gone} (the process it belonged to has ended)`);

  const rootfs = await ensureRootfs({ packages: options.packages, onProgress: progress });
  const nmOvs = options.nmOvs ? await ensureNmOvs(rootfs.path, { onProgress: progress }) : undefined;
  // VM hosts get it in their image (a variant of its own), nspawn hosts in their overlay (below).
  const image: VmImage | undefined = kinds.includes('vm') ? await ensureVmImage(rootfs, { onProgress: progress, selinux: options.vm?.selinux, nmOvs }) : undefined;
  const started = Date.now();
  const deadline = started + (options.timeoutMs ?? 120_000);
  const vmDeadline = Math.max(deadline, started + (options.vmTimeoutMs ?? VM_TIMEOUT_MS));
  const state = await newState(name, kinds, rootfs.path);
  if (nmOvs) state.nmOvs = nmOvs.version;
  if (ownerPid !== undefined) state.owner = await ownerOf(ownerPid);
  try {
    await writeState(state);
    if (state.owner) {
      state.watchdogPid = await startWatchdog(name, state.createdAt);
      await writeState(state);
    }
    await createLabKey(state.keyFile, name);
    await createLabNetwork(state);
    state.capabilities = await probeCapabilities(state.netns, rootfs.path);
    await writeState(state);
    const known: string[] = [];
    for (const host of state.hosts) {
      if (host.kind === 'vm') {
        known.push(await prepareVmHost(state, host, image!, rootfs.path, options.vm, options.wires));
        await writeState(state);
        continue;
      }
      await mkdir(`${host.dir}/upper`, { recursive: true });
      known.push(await writeHostIdentity(state, host, `${host.dir}/upper`, rootfs.path));
      if (nmOvs) await installNmOvs(nmOvs, `${host.dir}/upper`, rootfs.path);
      if (!(await createHostNetwork(state, host, rootfs.path))) {
        progress(`warning: tx offload left on for ${host.veth} (no ethtool in the rootfs): TCP through OVS netdev ports may fail`);
      }
      await mountOverlay(host, rootfs.path);
      await writeState(state);
    }
    await writeKnownHosts(state.knownHostsFile, known);
    const vms = kinds.filter((k) => k === 'vm').length;
    progress(`booting ${count} host${count > 1 ? 's' : ''} on ${state.subnet.cidr}${vms ? ` (${vms} VM${vms > 1 ? 's' : ''}, emulated: a minute or more)` : ''}`);
    // VMs first: they take longest.
    for (const host of [...state.hosts].sort((a, b) => Number(b.kind === 'vm') - Number(a.kind === 'vm'))) {
      Object.assign(host, host.kind === 'vm' ? await startVm(state, host) : await bootHost(host));
      await writeState(state);
    }
    const readiness = await Promise.all(state.hosts.map((h) =>
      h.kind === 'vm' ? waitForVm(state, h, vmDeadline, started) : waitForHost(state, h, deadline, started)));
    await writeState(state); // VM hosts' own capabilities
    for (const r of readiness) progress(`${r.host}: ${r.state} after ${r.seconds.toFixed(1)} s${r.failedUnits.length ? ` (failed: ${r.failedUnits.join(', ')})` : ''}`);
    return { state, readiness, degraded: readiness.filter((r) => r.state !== 'running'), rootfsBuilt: rootfs.built, vmImageBuilt: image?.built,
      seconds: (Date.now() - started) / 1000 };
  } catch (e) {
    if (!options.keepOnFailure) await teardownLab(name).catch(() => undefined);
    throw new Error(`lab up ${name} failed: ${(e as Error).message}`, { cause: e });
  }
}

async function newState(name: string, kinds: HostKind[], rootfs: string): Promise<LabState> {
  const used: string[] = [];
  for (const other of await listLabNames()) {
    if (other === name) continue;
    const s = await readState(other);
    if (s) used.push(s.subnet.cidr);
  }
  const subnet = allocateSubnet(name, used);
  const dir = labDir(name);
  const hosts: HostState[] = [];
  kinds.forEach((kind, n) => {
    const i = n + 1;
    const host = hostName(name, i);
    const vm = kind === 'vm';
    hosts.push({ name: host, index: i, kind, ip: hostIp(subnet, i), netns: vm ? labNetns(name) : hostNetns(name, i), machine: host,
      dir: `${dir}/${host}`, merged: `${dir}/${host}/merged`, cgroups: cgroupDirs(name, host), veth: vm ? labTap(i) : labVeth(i) });
  });
  return { version: 1, name, createdAt: new Date().toISOString(), subnet, netns: labNetns(name), bridge: LAB_BRIDGE, rootfs, dir,
    keyFile: `${dir}/id_ed25519`, knownHostsFile: `${dir}/known_hosts`, capabilities: {}, hosts };
}

/**
 * Removes a lab. Called from a test run (HOSTWIRE_LAB_OWNER_PID set: a test worker or a CLI it started), a
 * lab owned by another live process is refused (LabOwnedError): two runs of one test file must not tear down
 * each other's labs. Outside a test run (a user's `hostwire lab down --name X`) any lab goes, as always.
 */
export async function labDown(name = DEFAULT_LAB): Promise<TeardownReport> {
  checkLabName(name);
  if (process.env[OWNER_ENV]) await refuseForeignLab(name, 'removed', selfPids());
  return teardownLab(name);
}
