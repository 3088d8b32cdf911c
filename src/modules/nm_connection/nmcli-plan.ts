// What community.general.nmcli (6.6.2) does for one connection, from hostwire's read of it
// (nm_connection's probe): the nmcli commands it would run, in its order, and the result fields it
// reports before running them. Pure: the module file runs the commands.
import type { NmcliArgs } from './nmcli-args.js';
import type { NmState } from './nm_connection.js';
import { compareOptions, nmcliOptions, shownSettings, type OptionValue } from './nmcli-options.js';

export interface NmcliStep {
  /** nmcli's words after `nmcli`. */
  words: string[];
  /** A failure of this step fails the task (the module ignores `con down`'s). */
  checked: boolean;
  /** The module's `name` field when this step fails. */
  failName?: string;
}

export interface NmcliPlan {
  steps: NmcliStep[];
  /** Result fields the module reports (Exists / Connection messages, diff as a dict). */
  report: Record<string, unknown>;
  diff?: { before: Record<string, unknown>; after: Record<string, unknown> };
}

/** The words after `con add`/`con modify NAME`: settings with a value, xmit_hash_policy as +bond.options. */
function settingWords(ifname: string | undefined, options: Map<string, OptionValue>): string[] {
  const all = new Map<string, OptionValue>([['connection.interface-name', ifname], ...options]);
  return [...all].flatMap(([k, v]) => (v === undefined ? [] : k === 'xmit_hash_policy' ? ['+bond.options', `xmit_hash_policy=${v}`] : [k, String(v)]));
}

/** The module brings a new connection up only for these (its create_connection_up). */
const upAfterCreate = (a: NmcliArgs) =>
  ['bond', 'dummy', 'ethernet', 'infiniband', 'wifi'].includes(a.type ?? '') && (a.mtu !== undefined || a.dns4 !== undefined || a.dns6 !== undefined);

export function planNmcli(s: NmState, a: NmcliArgs): NmcliPlan | string {
  if (a.state === 'absent') {
    if (!s.conn) return { steps: [], report: {} };
    return { steps: [{ words: ['con', 'down', s.conn.uuid], checked: false }, { words: ['con', 'del', s.conn.uuid], checked: true, failName: `No Connection named ${a.conn_name} exists` }], report: {} };
  }
  if (s.conn) {
    const type = a.type ?? s.settings['connection.type'] ?? '';
    const compareWith = new Map<string, OptionValue>([['connection.interface-name', a.ifname], ...nmcliOptions(a, type, true)]);
    const mac = type === 'bridge' ? 'bridge.mac-address' : '802-3-ethernet.cloned-mac-address';
    const cmp = compareOptions(shownSettings(s.settings), compareWith, mac);
    const diff = { before: cmp.before, after: cmp.after };
    if (!cmp.changed) return { steps: [], report: { Exists: 'Connections already exist and no changes made' }, diff };
    const words = ['con', 'modify', s.conn.uuid, ...settingWords(a.ifname, nmcliOptions(a, type, false))];
    return { steps: [{ words, checked: true, failName: a.conn_name }], report: { Exists: 'Connections do exist so we are modifying them' }, diff };
  }
  if (a.type === undefined) return `type is required to create the connection ${a.conn_name} (it does not exist)`;
  const add = ['con', 'add', 'type', a.type, 'con-name', a.conn_name, ...settingWords(a.ifname ?? a.conn_name, nmcliOptions(a, a.type, false))];
  const steps: NmcliStep[] = [{ words: add, checked: true, failName: a.conn_name }];
  if (upAfterCreate(a)) steps.push({ words: ['con', 'up', 'id', a.conn_name], checked: true, failName: a.conn_name });
  return { steps, report: { Connection: `Connection ${a.conn_name} of Type ${a.type} is being added` } };
}
