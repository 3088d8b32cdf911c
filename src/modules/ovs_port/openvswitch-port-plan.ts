// The pure half of openvswitch_port (collection 2.1.1): its read of one port (the Port row with tag
// and external_ids, and every bridge's ports) and the ovs-vsctl commands the module's
// map_obj_to_commands would run for it - a port on the bridge gets only its tag and the external_ids
// given compared (the module ignores `set` there), a new port is added with its tag and `set`
// entries, absent deletes it from that bridge only. Where the module would run a command that fails
// (a port on another bridge, a tag to clear as 'tag=None'), the failure is said before anything runs.
import { need, readSections } from '../../probe/sections.js';
import { VSCTL, vsctlRead } from '../../probe/kinds/ovs-rows.js';
import type { ProbeRead } from '../../probe/types.js';
import { shellJoin } from '../../transports/quote.js';
import { asList, asMap, checkOvs, formatMap, ovsAtom, parseOvsTables } from '../kit/ovsdb.js';
import type { Change } from '../types.js';
import { getOwn, hasOwn, setOwn } from '../../own-keys.js';

export interface OvsPortWant {
  bridge: string;
  port: string;
  state: 'present' | 'absent';
  /** The VLAN tag as a decimal string, undefined when not given. */
  tag?: string;
  /** null removes the key. */
  externalIds: Record<string, string | null>;
  /** `set` entries as ovs-vsctl words: [table, record, col=value...]. */
  set: string[][];
}

export interface OvsPortHave {
  bridges: string[];
  exists: boolean;
  /** The bridge holding the port. */
  bridge?: string;
  tag?: string;
  externalIds: Record<string, string>;
}

export function openvswitchPortRead(port: string): ProbeRead {
  const q = ovsAtom(port);
  return vsctlRead({ section: 'oport', commands: [['--columns=_uuid,name,tag,external_ids', 'find', 'Port', `name=${q}`], ['--columns=name,ports', 'list', 'Bridge']] });
}

export function parseOpenvswitchPort(stdout: string): OvsPortHave {
  const s = need(readSections(stdout), 'oport', stdout);
  checkOvs(s, 'ovs-vsctl find Port');
  const [ports, bridges] = parseOvsTables(s.out);
  const names = (bridges ?? []).map((b) => String(b.name));
  const row = ports?.[0];
  if (!row) return { bridges: names, exists: false, externalIds: {} };
  const uuid = String(row._uuid);
  const holder = (bridges ?? []).find((b) => asList(b.ports).includes(uuid));
  const tag = row.tag === null || row.tag === undefined ? undefined : String(row.tag);
  return { bridges: names, exists: true, bridge: holder ? String(holder.name) : undefined, tag, externalIds: asMap(row.external_ids) };
}

const vsctl = (words: string[]) => shellJoin([...VSCTL.split(' '), ...words]);
const show = (h: { exists: boolean; bridge?: string; tag?: string; externalIds: Record<string, string> }, port: string) =>
  h.exists ? `port ${port} on ${h.bridge ?? '?'} tag=${h.tag ?? '[]'}\nexternal_ids: ${formatMap(h.externalIds)}\n` : 'absent\n';

/** The change (the module's ovs-vsctl commands in its order), or the module's failure as a message. */
export function planOpenvswitchPort(h: OvsPortHave, w: OvsPortWant): Change[] | string {
  if (!h.bridges.includes(w.bridge)) return `ovs-vsctl: no bridge named ${w.bridge}`;
  const onBridge = h.exists && h.bridge === w.bridge;
  const before = show(h, w.port);
  if (w.state === 'absent') return onBridge ? [{ summary: `delete OVS port ${w.port}`, before, after: 'absent\n', run: [vsctl(['del-port', w.bridge, w.port])] }] : [];
  if (h.exists && !onBridge) return `ovs-vsctl: cannot create a port named ${w.port} because a port named ${w.port} already exists on bridge ${h.bridge ?? '?'}`;
  const ids = { ...h.externalIds };
  const runs: string[] = [];
  if (!onBridge) {
    const setWords = w.set.flatMap((entry) => ['--', 'set', ...entry]);
    runs.push(vsctl(['add-port', w.bridge, w.port, ...(w.tag !== undefined ? [`tag=${w.tag}`] : []), ...setWords]));
  } else if (w.tag !== h.tag) {
    // The module compares the tag even when none is given and then runs 'set port P tag=None'.
    if (w.tag === undefined) return `port ${w.port} has tag ${h.tag} and no tag is given: openvswitch_port would run 'ovs-vsctl set port ${w.port} tag=None', which fails ("None" is not a valid integer); give tag: ${h.tag} to keep it`;
    runs.push(vsctl(['set', 'port', w.port, `tag=${w.tag}`]));
  }
  for (const [k, v] of Object.entries(w.externalIds)) {
    if (v === null) {
      if (onBridge && hasOwn(ids, k)) runs.push(vsctl(['remove', 'port', w.port, 'external_ids', ovsAtom(k)]));
      delete ids[k];
    } else if (getOwn(ids, k) !== v) {
      runs.push(vsctl(['set', 'port', w.port, `external_ids:${ovsAtom(k)}=${ovsAtom(v)}`]));
      setOwn(ids, k, v);
    }
  }
  const after = show({ exists: true, bridge: w.bridge, tag: w.tag ?? (onBridge ? h.tag : undefined), externalIds: ids }, w.port);
  return runs.length ? [{ summary: onBridge ? `update OVS port ${w.port}` : `add OVS port ${w.port} to ${w.bridge}`, before, after, run: runs }] : [];
}
