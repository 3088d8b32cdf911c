// group_vars/ and host_vars/ next to an inventory source (or a playbook), read the way
// Ansible's host_group_vars plugin + DataLoader.find_vars_files() do: for a name, the first
// of `<name>`, `<name>.yml`, `<name>.yaml`, `<name>.json` that exists wins; if it is a
// directory, every YAML file under it is merged in sorted order (subdirectories included).
import { readdir, stat } from 'node:fs/promises';
import { readInputFile } from '../input-file.js';
import { join } from 'node:path';
import { BadInputError } from '../../errors.js';
import type { Inventory, Vars, VarsLayer } from './types.js';
import { readYaml, toJs } from './yaml-source.js';
import type { Node } from 'yaml';
import { decryptFileText } from '../../vault/keyring.js';

const EXTENSIONS = ['', '.yml', '.yaml', '.json'];

async function kind(path: string): Promise<'file' | 'dir' | undefined> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

async function filesInDir(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await listDir(dir)) {
    if (name.startsWith('.') || name.endsWith('~')) continue;
    const full = join(dir, name);
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 ? name.slice(dot) : '';
    const k = await kind(full);
    if (k === 'dir' && !ext) found.push(...(await filesInDir(full)));
    else if (k === 'file' && EXTENSIONS.includes(ext)) found.push(full);
  }
  return found;
}

/** The files holding vars for `name` under `dir` (group_vars or host_vars), in merge order. */
export async function findVarsFiles(dir: string, name: string, entriesInDir?: Set<string>): Promise<string[]> {
  for (const ext of EXTENSIONS) {
    if (entriesInDir && !entriesInDir.has(name + ext)) continue;
    const full = join(dir, name + ext);
    const k = await kind(full);
    if (k === 'dir') return filesInDir(full);
    if (k === 'file') return [full];
  }
  return [];
}

/** Read one vars file: a YAML/JSON mapping, or nothing when it is empty. */
export async function readVarsFile(file: string): Promise<Vars | undefined> {
  let text: string;
  text = readInputFile(file, 'vars file');
  const src = readYaml(decryptFileText(text, file), file);
  const value = toJs(src, src.doc.contents as Node | null);
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new BadInputError(`expected a mapping of variables, got a ${Array.isArray(value) ? 'list' : typeof value}`, { file, line: 1, column: 1 });
  }
  return Object.keys(value).length ? (value as Vars) : undefined;
}

async function loadSide(base: string, names: Iterable<string>, into: Map<string, Vars>, files: string[]): Promise<void> {
  const k = await kind(base);
  if (k !== 'dir') return;
  const present = new Set(await listDir(base));
  for (const name of names) {
    // Ansible skips chroot-style host names such as /srv/chroot.
    if (name.startsWith('/') || name.includes('/')) continue;
    let merged: Vars | undefined;
    for (const file of await findVarsFiles(base, name, present)) {
      const data = await readVarsFile(file);
      files.push(file);
      if (data) merged = { ...(merged ?? {}), ...data };
    }
    if (merged) into.set(name, merged);
  }
}

/**
 * Load `<dir>/group_vars/*` and `<dir>/host_vars/*` for the groups and hosts of `inv`.
 * Used for each inventory source's directory, and by the playbook loader for the playbook's.
 */
export async function loadVarsDir(dir: string, inv: Pick<Inventory, 'groups' | 'hosts'>): Promise<VarsLayer> {
  const layer: VarsLayer = { dir, groups: new Map(), hosts: new Map(), files: [] };
  await loadSide(join(dir, 'group_vars'), inv.groups.keys(), layer.groups, layer.files);
  await loadSide(join(dir, 'host_vars'), inv.hosts.keys(), layer.hosts, layer.files);
  return layer;
}
