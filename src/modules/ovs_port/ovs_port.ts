// ovs_port: a port on an OVS bridge with its interface type and options (exactly those given:
// tunnel options define the tunnel) and the port's external_ids (the keys given).
// One ovs-vsctl call reads the Port, its Interface and which bridge holds it.
import { z } from 'zod';
import { shellJoin } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { need, readSections } from '../../probe/sections.js';
import { asList, asMap, checkOvs, formatMap, mapAssignments, mapDiff, ovsAtom, ovsMap, parseOvsTables } from '../kit/ovsdb.js';
import { VSCTL, vsctlRead } from '../../probe/kinds/ovs-rows.js';
import type { ProbeRead } from '../../probe/types.js';
import { ovsPortDoc } from './doc.js';

const ovsPortArgs = z
  .object({
    bridge: z.string().min(1),
    port: z.string().min(1),
    type: z.enum(['internal', 'patch', 'vxlan', 'geneve', 'gre', 'system']).optional(),
    options: ovsMap,
    external_ids: ovsMap,
    state: z.enum(['present', 'absent']).default('present'),
  })
  .strict()
  .refine((a) => a.type !== 'patch' || a.state === 'absent' || a.options.peer !== undefined, { message: 'type patch needs options.peer', path: ['options'] })
  .refine((a) => !['vxlan', 'geneve', 'gre'].includes(a.type ?? '') || a.state === 'absent' || a.options.remote_ip !== undefined, { message: 'tunnel ports need options.remote_ip', path: ['options'] });

export type OvsPortArgs = z.infer<typeof ovsPortArgs>;

export interface PortState {
  exists: boolean;
  /** The bridge holding the port (undefined when absent). */
  bridge?: string;
  type: string;
  options: Record<string, string>;
  externalIds: Record<string, string>;
}

export function readPort(stdout: string): PortState {
  const s = need(readSections(stdout), 'port', stdout);
  checkOvs(s, 'ovs-vsctl find Port');
  const [ports, ifaces, bridges] = parseOvsTables(s.out);
  const port = ports?.[0];
  if (!port) return { exists: false, type: '', options: {}, externalIds: {} };
  const uuid = String(port._uuid);
  const bridge = (bridges ?? []).find((b) => asList(b.ports).includes(uuid));
  const iface = ifaces?.[0];
  return { exists: true, bridge: bridge ? String(bridge.name) : undefined, type: typeof iface?.type === 'string' ? iface.type : '', options: asMap(iface?.options), externalIds: asMap(port.external_ids) };
}

const show = (p: PortState, name: string) => (p.exists ? `port ${name} on ${p.bridge ?? '?'} type=${p.type || 'system'}\noptions: ${formatMap(p.options)}\nexternal_ids: ${formatMap(p.externalIds)}\n` : 'absent\n');

export function planPort(p: PortState, a: OvsPortArgs): Change[] {
  const vsctl = VSCTL.split(' ');
  if (a.state === 'absent') return p.exists ? [{ summary: `delete OVS port ${a.port}`, before: show(p, a.port), after: 'absent\n', run: [shellJoin([...vsctl, '--if-exists', 'del-port', a.port])] }] : [];
  const type = a.type === 'system' ? '' : (a.type ?? '');
  const after = show({ exists: true, bridge: a.bridge, type, options: a.options, externalIds: { ...p.externalIds, ...a.external_ids } }, a.port);
  const ifaceSets = [...(type ? [`type=${type}`] : []), ...mapAssignments('options', a.options)];
  const portSets = mapAssignments('external_ids', a.external_ids);
  if (!p.exists || p.bridge !== a.bridge) {
    const words = [
      ...(p.exists ? ['del-port', a.port, '--'] : []),
      'add-port', a.bridge, a.port,
      ...(ifaceSets.length ? ['--', 'set', 'interface', a.port, ...ifaceSets] : []),
      ...(portSets.length ? ['--', 'set', 'port', a.port, ...portSets] : []),
    ];
    return [{ summary: p.exists ? `move OVS port ${a.port} from ${p.bridge} to ${a.bridge}` : `add OVS port ${a.port} to ${a.bridge}`, before: show(p, a.port), after, run: [shellJoin([...vsctl, ...words])] }];
  }
  const cmds: string[][] = [];
  const changedIface = [...(p.type !== type ? [`type=${ovsAtom(type)}`] : []), ...mapAssignments('options', mapDiff(p.options, a.options))];
  if (changedIface.length) cmds.push(['set', 'interface', a.port, ...changedIface]);
  for (const k of Object.keys(p.options).filter((k) => !(k in a.options))) cmds.push(['remove', 'interface', a.port, 'options', ovsAtom(k)]);
  const changedPort = mapAssignments('external_ids', mapDiff(p.externalIds, a.external_ids));
  if (changedPort.length) cmds.push(['set', 'port', a.port, ...changedPort]);
  if (!cmds.length) return [];
  const words = cmds.flatMap((c, i) => (i ? ['--', ...c] : c));
  return [{ summary: `update OVS port ${a.port}`, before: show(p, a.port), after, run: [shellJoin([...vsctl, ...words])] }];
}

/** The port, its interface and every bridge's port list: three tables. */
export function portRead(port: string): ProbeRead {
  const q = ovsAtom(port);
  return vsctlRead({ section: 'port', commands: [['--columns=_uuid,name,external_ids', 'find', 'Port', `name=${q}`], ['--columns=name,type,options', 'find', 'Interface', `name=${q}`], ['--columns=name,ports', 'list', 'Bridge']] });
}

export const ovsPortModule: Module<OvsPortArgs, PortState> = {
  name: 'ovs_port',
  doc: ovsPortDoc,
  args: ovsPortArgs,
  probe: (a) => ({ ...portRead(a.port), parse: (o) => readPort(o.stdout) }),
  plan: (p, a) => planPort(p, a),
};
