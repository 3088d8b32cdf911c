// Ansible's INI inventory format, following plugins/inventory/ini.py line by line:
// hosts before any section are `ungrouped`; [g:children] may name groups declared later;
// [g:vars] values are Python literals or raw text; host-line values go through shlex first.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { addChildGroup, addGroup, addHost, setGroupVar } from './data.js';
import { expandHostPattern } from './host-range.js';
import { parseIniValue } from './py-literal.js';
import { shlexSplit, ShlexError } from './shlex.js';
import type { Inventory } from './types.js';
import { assignOwn, setOwn } from '../../own-keys.js';

const SECTION = /^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:#.*)?$/;
const GROUP_NAME = /^([^:\]\s]+)\s*(?:#.*)?$/;

interface Pending {
  state: 'vars' | 'children';
  loc: SourceLoc;
  parents: string[];
}

export function parseIni(inv: Inventory, text: string, file: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  const pending = new Map<string, Pending>();
  let group = 'ungrouped';
  let state = 'hosts';

  const addPendingChildren = (name: string): void => {
    for (const parent of pending.get(name)?.parents ?? []) {
      addChildGroup(inv, parent, name, pending.get(name)?.loc);
      if (pending.get(parent)?.state === 'children') addPendingChildren(parent);
    }
    pending.delete(name);
  };

  lines.forEach((raw, idx) => {
    const line = raw.trim();
    if (!line || line[0] === '#' || line[0] === ';') return;
    const loc: SourceLoc = { file, line: idx + 1, column: raw.length - raw.trimStart().length + 1 };

    const m = SECTION.exec(line);
    if (m) {
      group = m[1]!;
      state = m[2] ?? 'hosts';
      if (!['hosts', 'children', 'vars'].includes(state)) {
        throw new BadInputError(`section [${group}:${state}] has unknown type '${state}'; expected [${group}], [${group}:vars] or [${group}:children]`, loc);
      }
      if (!inv.groups.has(group)) {
        // [g:vars] alone does not declare g; remember it and check at the end.
        if (state === 'vars' && !pending.has(group)) pending.set(group, { state, loc, parents: [] });
        addGroup(inv, group, loc);
      }
      const p = pending.get(group);
      if (p && state !== 'vars') {
        if (p.state === 'children') addPendingChildren(group);
        else pending.delete(group);
      }
      return;
    }
    if (line.startsWith('[') && line.endsWith(']')) {
      throw new BadInputError(`invalid section header '${line}'; expected [group], [group:vars] or [group:children] with no spaces`, loc);
    }

    if (state === 'hosts') {
      addHostLine(inv, line, { group, file, loc });
    } else if (state === 'vars') {
      const eq = line.indexOf('=');
      if (eq < 0) throw new BadInputError(`expected key=value in [${group}:vars], got '${line}'`, loc);
      setGroupVar(inv, group, line.slice(0, eq).trim(), parseIniValue(line.slice(eq + 1).trim()));
    } else {
      addChildLine(inv, line, { group, loc, pending });
    }
  });

  for (const [name, p] of pending) {
    if (p.state === 'vars') {
      throw new BadInputError(`section [${name}:vars] is for group '${name}', which is not defined; expected a [${name}] or [${name}:children] section`, p.loc);
    }
    throw new BadInputError(`section [${p.parents.at(-1)}:children] includes undefined group '${name}'; expected a [${name}] section`, p.loc);
  }
}

/** A host line: a host pattern (with ranges and an optional :port), then key=value variables. */
function addHostLine(inv: Inventory, line: string, at: { group: string; file: string; loc: SourceLoc }): void {
  const { group, file, loc } = at;
  let tokens: string[];
  try {
    tokens = shlexSplit(line);
  } catch (e) {
    if (e instanceof ShlexError) throw new BadInputError(`cannot parse host line '${line}': ${e.message}`, loc);
    throw e;
  }
  if (!tokens.length) return;
  const pattern = tokens[0]!;
  const { hosts, port } = expandHostPattern(pattern, loc);
  if (pattern.trim().endsWith(':') && port === undefined) {
    throw new BadInputError(`invalid host '${pattern}': a trailing ':' must be followed by a port number`, loc);
  }
  if (hosts.some((h) => h.trim() === '---')) {
    throw new BadInputError(`invalid host '---'; this looks like a YAML file`, loc);
  }
  const vars: Record<string, unknown> = {};
  for (const t of tokens.slice(1)) {
    const eq = t.indexOf('=');
    if (eq < 0) throw new BadInputError(`expected key=value host variable after '${pattern}', got '${t}'`, loc);
    setOwn(vars, t.slice(0, eq), parseIniValue(t.slice(eq + 1)));
  }
  for (const h of hosts) {
    const host = addHost(inv, h, { group, port, source: file, loc });
    assignOwn(host.vars, vars);
  }
}

/** A line of [group:children]: a group known now becomes a child, else it waits until it is declared. */
function addChildLine(inv: Inventory, line: string, at: { group: string; loc: SourceLoc; pending: Map<string, Pending> }): void {
  const { group, loc, pending } = at;
  const gm = GROUP_NAME.exec(line);
  if (!gm) throw new BadInputError(`expected a group name in [${group}:children], got '${line}'`, loc);
  const child = gm[1]!;
  if (inv.groups.has(child)) addChildGroup(inv, group, child, loc);
  else {
    const p = pending.get(child);
    if (p) p.parents.push(group);
    else pending.set(child, { state: 'children', loc, parents: [group] });
  }
}
