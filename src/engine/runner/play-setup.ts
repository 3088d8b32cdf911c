// What a play needs before its first batch: its hosts (`hosts:` templated, --limit applied) and
// its vars_files, read in order and merged.
import path from 'node:path';
import { BadInputError } from '../../errors.js';
import { selectHosts, type Inventory } from '../inventory/index.js';
import type { PlayDef, Vars } from '../playbook/types.js';
import { orderHosts } from '../playbook/play-order.js';
import { mergeVars, renderValue, templatedVars } from '../vars/index.js';
import { locOf, readYamlFile } from '../yaml-source.js';

/** `hosts:` is templated with the play's vars and -e vars, as Ansible does (`hosts: "{{ new_nodes }}"`). */
export function resolvePlayHosts(inv: Inventory, play: PlayDef, extra: Vars, limit?: string): string[] {
  const rendered = String(renderValue(play.hosts, templatedVars(mergeVars(play.vars, extra)), play.loc));
  const selected = selectHosts(inv, rendered, { limit: limit ? [limit] : undefined });
  if (selected.length === 0 && ['localhost', '127.0.0.1'].includes(rendered) && !limit) return [rendered];
  return orderHosts(selected, play.order);
}

export async function loadVarsFiles(play: PlayDef, extra: Vars): Promise<Vars> {
  let out: Vars = {};
  for (const f of play.varsFiles) {
    const file = path.resolve(play.baseDir, String(renderValue(f, templatedVars(mergeVars(play.vars, extra)), play.loc)));
    const data = await readYamlFile(file).catch((err: unknown) => {
      // A missing vars file: say which play asked for it.
      if (err instanceof BadInputError && err.loc?.line === undefined) throw new BadInputError(`vars_files entry '${f}': ${err.message}`, locOf(play.varsFiles) ?? play.loc, err);
      throw err;
    });
    if (data === null || data === undefined) continue;
    if (typeof data !== 'object' || Array.isArray(data)) throw new BadInputError(`a vars file must be a mapping of variables, got ${Array.isArray(data) ? 'a list' : typeof data}`, { file, line: 1 });
    out = mergeVars(out, data as Vars);
  }
  return out;
}
