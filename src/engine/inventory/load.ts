// Entry point: read one or more inventory sources (-i a -i b) into one Inventory.
// A source is a file (YAML or INI, detected like Ansible's plugin chain), a directory
// (every file in it, sorted, recursively, skipping what Ansible skips), or a
// comma-separated host list such as `web1,web2:2222,`.
import { readdir, stat } from 'node:fs/promises';
import { readInputFile } from '../input-file.js';
import { dirname, extname, join, resolve } from 'node:path';
import { BadInputError, formatLoc } from '../../errors.js';
import { addHost, emptyInventory, reconcile } from './data.js';
import { parseAddress } from './host-range.js';
import { parseIni } from './parse-ini.js';
import { isYamlInventory, parseYamlInventory } from './parse-yaml.js';
import type { Inventory } from './types.js';
import { loadVarsDir } from './vars-dirs.js';
import { readYaml, type YamlSource } from './yaml-source.js';
import { decryptFileText } from '../../vault/keyring.js';

// INVENTORY_IGNORE_EXTS and the always-ignored names of InventoryManager, for directory sources.
const IGNORED_NAMES = /^\.|^host_vars$|^group_vars$|^vars_plugins$/;
const IGNORED_EXTS = ['.pyc', '.pyo', '.swp', '.bak', '~', '.rpm', '.md', '.txt', '.rst', '.orig', '.ini', '.cfg', '.retry'];
const YAML_EXTS = ['.yml', '.yaml', '.json'];

export async function loadInventory(sources: string[]): Promise<Inventory> {
  const resolved = sources.map((s) => (isHostList(s) ? s : resolve(s)));
  const inv = emptyInventory(resolved);
  const dirs: string[] = [];
  for (const source of resolved) {
    if (isHostList(source)) {
      parseHostList(inv, source);
      continue;
    }
    const st = await stat(source).catch((e: NodeJS.ErrnoException) => {
      throw new BadInputError(`inventory source not found (${e.code ?? e.message}); expected an inventory file, a directory or a host list like 'a,b,'`, { file: source }, e);
    });
    if (st.isDirectory()) {
      await loadDirectory(inv, source);
      dirs.push(source);
    } else {
      await loadFile(inv, source);
      dirs.push(dirname(source));
    }
  }
  reconcile(inv);
  for (const dir of dirs) inv.varsLayers.push(await loadVarsDir(dir, inv));
  return inv;
}

function isHostList(source: string): boolean {
  return source.includes(',');
}

function parseHostList(inv: Inventory, source: string): void {
  for (const item of source.split(',').map((s) => s.trim()).filter(Boolean)) {
    const parsed = parseAddress(item);
    addHost(inv, parsed && !parsed.host.includes('[') ? parsed.host : item, { group: 'ungrouped', port: parsed?.port });
  }
}

async function loadDirectory(inv: Inventory, dir: string): Promise<void> {
  const names = (await readdir(dir)).sort();
  for (const name of names) {
    if (IGNORED_NAMES.test(name) || IGNORED_EXTS.some((e) => name.endsWith(e))) continue;
    const full = join(dir, name);
    const st = await stat(full).catch((e: Error) => {
      throw new BadInputError(`cannot read inventory file: ${e.message}`, { file: full }, e);
    });
    if (st.isDirectory()) await loadDirectory(inv, full);
    else if (st.isFile()) await loadFile(inv, full);
  }
}

/** Parse one inventory file into `inv`, choosing YAML or INI the way Ansible's plugins would. */
export async function loadFile(inv: Inventory, file: string): Promise<void> {
  let text: string;
  text = readInputFile(file, 'inventory file');
  text = decryptFileText(text, file);
  const ext = extname(file).toLowerCase();
  if (ext === '.ini') return parseIni(inv, text, file);
  let yaml: YamlSource | undefined;
  let yamlError: BadInputError | undefined;
  try {
    yaml = readYaml(text, file);
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    yamlError = e;
  }
  if (YAML_EXTS.includes(ext)) {
    if (yamlError) throw yamlError;
    return parseYamlInventory(inv, yaml!);
  }
  if (yaml && isYamlInventory(yaml)) return parseYamlInventory(inv, yaml);
  try {
    parseIni(inv, text, file);
  } catch (e) {
    if (!(e instanceof BadInputError) || !yamlError) throw e;
    const bare = (err: BadInputError): string => err.message.slice(formatLoc(err.loc).length + 2);
    const at = (err: BadInputError): string => `line ${err.loc?.line ?? '?'}`;
    throw new BadInputError(
      `not a valid inventory: as YAML, ${bare(yamlError)} (${at(yamlError)}); as INI, ${bare(e)} (${at(e)})`,
      yamlError.loc,
      e,
    );
  }
}
