// Ansible's YAML inventory format (plugins/inventory/yaml.py): top-level keys are groups,
// each with optional `hosts:`, `children:` and `vars:`; a host may appear under many groups
// and its inline vars accumulate.
import { isMap, isScalar, type Node } from 'yaml';
import { BadInputError } from '../../errors.js';
import { addChildGroup, addGroup, addHost, setGroupVar } from './data.js';
import { expandHostPattern } from './host-range.js';
import type { Inventory } from './types.js';
import { entries, isNullNode, locOf, resolve, toJs, typeName, type YamlSource } from './yaml-source.js';
import { assignOwn } from '../../own-keys.js';

const SECTIONS = ['vars', 'children', 'hosts'];

/** True when the document is a mapping, i.e. it can be a YAML inventory. */
export function isYamlInventory(src: YamlSource): boolean {
  return isMap(src.doc.contents);
}

export function parseYamlInventory(inv: Inventory, src: YamlSource): void {
  const root = src.doc.contents as Node | null;
  if (isNullNode(src, root)) return;
  if (!isMap(root)) {
    throw new BadInputError(`YAML inventory must be a mapping of group names, got a ${typeName(src, root)}`, locOf(src, root));
  }
  if (entries(src, root).some((e) => e.key === 'plugin')) {
    throw new BadInputError('this is an inventory plugin configuration (it has a `plugin:` key); expected a static YAML inventory', locOf(src, root));
  }
  for (const e of entries(src, root)) parseGroup(inv, src, e.key, e.keyNode, e.value);
}

function parseGroup(inv: Inventory, src: YamlSource, name: unknown, keyNode: Node | null, data: Node | null): string | undefined {
  const loc = locOf(src, keyNode);
  if (typeof name !== 'string' || !name) {
    throw new BadInputError(`group name must be a non-empty string, got ${JSON.stringify(name)}`, loc);
  }
  const node = resolve(src, data);
  if (!isNullNode(src, node) && !isMap(node)) {
    inv.warnings.push(`${loc.file}:${loc.line}: skipping '${name}': not a valid group definition (expected a mapping)`);
    return undefined;
  }
  addGroup(inv, name, loc);
  for (const e of entries(src, node)) {
    const key = e.key;
    const kloc = locOf(src, e.keyNode);
    if (typeof key !== 'string' || !SECTIONS.includes(key)) {
      inv.warnings.push(`${kloc.file}:${kloc.line}: skipping unexpected key (${String(key)}) in group (${name}); only "vars", "children" and "hosts" are valid`);
      continue;
    }
    const value = resolve(src, e.value);
    if (isNullNode(src, value)) continue;
    // `hosts: web1` is shorthand for `hosts: {web1: null}`.
    const items = isScalar(value) && typeof value.value === 'string'
      ? [{ key: value.value, keyNode: value as Node, value: null }]
      : isMap(value)
        ? entries(src, value)
        : undefined;
    if (!items) {
      throw new BadInputError(`invalid "${key}" entry for group "${name}": expected a mapping, found a ${typeName(src, value)}`, locOf(src, value));
    }
    if (key === 'vars') {
      for (const v of items) setGroupVar(inv, name, String(v.key), toJs(src, v.value));
    } else if (key === 'children') {
      for (const c of items) {
        const child = parseGroup(inv, src, c.key, c.keyNode, c.value);
        if (child) addChildGroup(inv, name, child, locOf(src, c.keyNode));
      }
    } else {
      for (const h of items) addHosts(inv, src, name, h.key, h.keyNode, h.value);
    }
  }
  return name;
}

function addHosts(inv: Inventory, src: YamlSource, group: string, pattern: unknown, keyNode: Node | null, value: Node | null): void {
  const loc = locOf(src, keyNode);
  if (typeof pattern !== 'string') {
    throw new BadInputError(`host pattern ${JSON.stringify(pattern)} must be a string; quote numbers`, loc);
  }
  const vars = isNullNode(src, value) ? {} : toJs(src, value);
  if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) {
    throw new BadInputError(`host '${pattern}' in group '${group}': expected a mapping of vars, got a ${typeName(src, value)}`, locOf(src, value));
  }
  const { hosts, port } = expandHostPattern(pattern, loc);
  for (const name of hosts) {
    const host = addHost(inv, name, { group, port, source: src.file, loc });
    assignOwn(host.vars, vars);
  }
}
