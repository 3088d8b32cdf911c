// ovs_bridge: an Open vSwitch bridge with its datapath type, fail mode and the other_config /
// external_ids keys given (other keys are left alone). Read with one `ovs-vsctl --format=json find`.
import { z } from 'zod';
import { shellJoin } from '../../transports/quote.js';
import type { Change, Module } from '../types.js';
import { need, readSections } from '../../probe/sections.js';
import { VSCTL, vsctlRead } from '../../probe/kinds/ovs-rows.js';
import { asMap, checkOvs, formatMap, mapAssignments, mapDiff, ovsAtom, ovsMap, parseOvsTables, type OvsValue } from '../kit/ovsdb.js';
import { ovsBridgeDoc } from './doc.js';

const ovsBridgeArgs = z
  .object({
    bridge: z.string().min(1),
    state: z.enum(['present', 'absent']).default('present'),
    datapath_type: z.string().optional(),
    fail_mode: z.enum(['standalone', 'secure']).optional(),
    other_config: ovsMap,
    external_ids: ovsMap,
  })
  .strict();

export type OvsBridgeArgs = z.infer<typeof ovsBridgeArgs>;
export type BridgeRow = Record<string, OvsValue> | undefined;

export function readBridge(stdout: string): BridgeRow {
  const s = need(readSections(stdout), 'bridge', stdout);
  checkOvs(s, 'ovs-vsctl find Bridge');
  return parseOvsTables(s.out)[0]?.[0];
}

const scalar = (v: OvsValue | undefined) => (typeof v === 'string' ? v : Array.isArray(v) ? (v[0] ?? '') : '');

function show(row: BridgeRow): string {
  if (!row) return 'absent\n';
  return `bridge ${String(row.name)} datapath_type=${scalar(row.datapath_type) || 'system'} fail_mode=${scalar(row.fail_mode) || 'standalone'}\nother_config: ${formatMap(asMap(row.other_config))}\nexternal_ids: ${formatMap(asMap(row.external_ids))}\n`;
}

export function planBridge(row: BridgeRow, a: OvsBridgeArgs): Change[] {
  if (a.state === 'absent') return row ? [{ summary: `delete OVS bridge ${a.bridge}`, before: show(row), after: 'absent\n', run: [shellJoin([...VSCTL.split(' '), '--if-exists', 'del-br', a.bridge])] }] : [];
  const sets: string[] = [];
  if (a.datapath_type !== undefined && (scalar(row?.datapath_type) || 'system') !== a.datapath_type) sets.push(`datapath_type=${ovsAtom(a.datapath_type)}`);
  if (a.fail_mode !== undefined && (scalar(row?.fail_mode) || 'standalone') !== a.fail_mode) sets.push(`fail_mode=${a.fail_mode}`);
  sets.push(...mapAssignments('other_config', mapDiff(row?.other_config, a.other_config)));
  sets.push(...mapAssignments('external_ids', mapDiff(row?.external_ids, a.external_ids)));
  if (row && sets.length === 0) return [];
  const after: BridgeRow = {
    name: a.bridge,
    datapath_type: a.datapath_type ?? scalar(row?.datapath_type),
    fail_mode: a.fail_mode ?? scalar(row?.fail_mode),
    other_config: { ...asMap(row?.other_config), ...a.other_config },
    external_ids: { ...asMap(row?.external_ids), ...a.external_ids },
  };
  const words = row ? ['set', 'bridge', a.bridge, ...sets] : ['add-br', a.bridge, ...(sets.length ? ['--', 'set', 'bridge', a.bridge, ...sets] : [])];
  return [{ summary: row ? `update OVS bridge ${a.bridge}: ${sets.join(' ')}` : `create OVS bridge ${a.bridge}`, before: show(row), after: show(after), run: [shellJoin([...VSCTL.split(' '), ...words])] }];
}

export const ovsBridgeModule: Module<OvsBridgeArgs, BridgeRow> = {
  name: 'ovs_bridge',
  doc: ovsBridgeDoc,
  args: ovsBridgeArgs,
  probe: (a) => ({
    ...vsctlRead({ section: 'bridge', commands: [['--columns=name,datapath_type,fail_mode,other_config,external_ids', 'find', 'Bridge', `name=${ovsAtom(a.bridge)}`]] }),
    parse: (o) => readBridge(o.stdout),
  }),
  plan: (row, a) => planBridge(row, a),
};
