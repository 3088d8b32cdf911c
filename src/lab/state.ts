// A lab's record on disk (LABS_DIR/<lab>/state.json): everything teardown needs, written atomically
// after every step so a crash leaves a state that the next `lab up`/`lab down` can clean.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { labDir, LABS_DIR } from './names.js';
import type { LabSubnet } from './subnet.js';
import { writeFileAtomic } from './fs-util.js';

export type LabCapabilities = Record<string, boolean>;

export interface HostState {
  name: string;
  index: number;
  ip: string;
  netns: string;
  /** nspawn machine name (same as `name`). */
  machine: string;
  dir: string;
  merged: string;
  cgroups: string[];
  nspawnPid?: number;
  /** The container's PID 1 as seen from the machine. */
  initPid?: number;
  veth: string;
}

export interface LabState {
  version: 1;
  name: string;
  createdAt: string;
  subnet: LabSubnet;
  netns: string;
  bridge: string;
  rootfs: string;
  dir: string;
  keyFile: string;
  knownHostsFile: string;
  capabilities: LabCapabilities;
  hosts: HostState[];
}

export const statePath = (lab: string): string => `${labDir(lab)}/state.json`;

export async function writeState(state: LabState): Promise<void> {
  await mkdir(state.dir, { recursive: true });
  await writeFileAtomic(statePath(state.name), `${JSON.stringify(state, null, 2)}\n`);
}

export async function readState(lab: string): Promise<LabState | undefined> {
  try {
    return JSON.parse(await readFile(statePath(lab), 'utf8')) as LabState;
  } catch {
    return undefined;
  }
}

/** Lab names with a directory under LABS_DIR (with or without a readable state file). */
export async function listLabNames(): Promise<string[]> {
  const names = await readdir(LABS_DIR).catch(() => [] as string[]);
  return names.filter((n) => /^[a-z][a-z0-9]*$/.test(n)).sort();
}
