// Flow normalisation: the same flow is spelled many ways (`ip` vs `dl_type=0x0800`, a port name vs
// its number, `set_field:X->nw_dst` vs `mod_nw_dst:X`, `goto_table:1` vs `resubmit(,1)`, a missing
// table=0 / priority=32768). Both the wanted flows and `ovs-ofctl dump-flows` lines are brought to
// one canonical text, so comparing them is a string comparison.

export interface NormFlow {
  table: number;
  priority: number;
  /** Sorted `field=value` match terms (protocol shorthands expanded). */
  match: string[];
  actions: string[];
  /** Identity in OpenFlow: table + priority + match. */
  key: string;
  canon: string;
}

/** Split at `seps` that are not inside (), [] or {}. */
export function splitTop(s: string, seps: RegExp): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    if (depth === 0 && seps.test(c)) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur) out.push(cur);
  return out;
}

const PROTOS: Record<string, string[]> = {
  ip: ['dl_type=0x0800'], ipv6: ['dl_type=0x86dd'], arp: ['dl_type=0x0806'], rarp: ['dl_type=0x8035'],
  tcp: ['dl_type=0x0800', 'nw_proto=6'], udp: ['dl_type=0x0800', 'nw_proto=17'], icmp: ['dl_type=0x0800', 'nw_proto=1'], sctp: ['dl_type=0x0800', 'nw_proto=132'],
  tcp6: ['dl_type=0x86dd', 'nw_proto=6'], udp6: ['dl_type=0x86dd', 'nw_proto=17'], icmp6: ['dl_type=0x86dd', 'nw_proto=58'], sctp6: ['dl_type=0x86dd', 'nw_proto=132'],
  mpls: ['dl_type=0x8847'], mplsm: ['dl_type=0x8848'],
};

const FIELD_ALIASES: Record<string, string> = {
  eth_src: 'dl_src', eth_dst: 'dl_dst', eth_type: 'dl_type', ip_src: 'nw_src', ip_dst: 'nw_dst', ipv4_src: 'nw_src', ipv4_dst: 'nw_dst',
  ip_proto: 'nw_proto', tcp_src: 'tp_src', tcp_dst: 'tp_dst', udp_src: 'tp_src', udp_dst: 'tp_dst', sctp_src: 'tp_src', sctp_dst: 'tp_dst',
  ip_dscp: 'nw_tos_dscp', vlan_vid: 'dl_vlan', arp_op: 'arp_op',
};

/** Flags and counters a dump shows that are not part of a flow's identity or behaviour. */
const IGNORED = new Set(['cookie', 'duration', 'n_packets', 'n_bytes', 'idle_age', 'hard_age', 'reset_counts', 'send_flow_rem', 'check_overlap', 'no_packet_counts', 'no_byte_counts']);

const ipv4ToInt = (s: string) => s.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const intToIpv4 = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');

/** `10.1.2.3/255.255.0.0` -> `10.1.0.0/16`; `/32` dropped. Other values unchanged. */
export function normIpv4(v: string): string {
  const m = /^(\d+\.\d+\.\d+\.\d+)(?:\/(\d+\.\d+\.\d+\.\d+|\d+))?$/.exec(v);
  if (!m) return v;
  let len = 32;
  if (m[2] !== undefined) len = m[2].includes('.') ? (ipv4ToInt(m[2]).toString(2).match(/1/g) ?? []).length : Number(m[2]);
  const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
  const net = intToIpv4((ipv4ToInt(m[1]) & mask) >>> 0);
  return len === 32 ? net : `${net}/${len}`;
}

const unquote = (s: string) => s.replace(/^"(.*)"$/, '$1');
const isMac = (v: string) => /^([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}(\/.*)?$/.test(v);

function normPort(v: string, ports: Map<string, number>): string {
  const name = unquote(v);
  const n = ports.get(name);
  if (n !== undefined) return String(n);
  const upper = name.toUpperCase();
  return ['LOCAL', 'IN_PORT', 'NORMAL', 'FLOOD', 'ALL', 'CONTROLLER', 'NONE', 'ANY'].includes(upper) ? upper : name;
}

function normValue(field: string, v: string, ports: Map<string, number>): string {
  if (field === 'in_port') return normPort(v, ports);
  if (field === 'dl_type') return `0x${Number(v).toString(16).padStart(4, '0')}`;
  if (['nw_proto', 'tp_src', 'tp_dst', 'dl_vlan'].includes(field) && /^(0x[0-9a-f]+|\d+)$/i.test(v)) return String(Number(v));
  if (isMac(v)) return v.toLowerCase();
  return normIpv4(v);
}

const SET_FIELD_ACTIONS: Record<string, string> = {
  nw_dst: 'mod_nw_dst', ip_dst: 'mod_nw_dst', ipv4_dst: 'mod_nw_dst', nw_src: 'mod_nw_src', ip_src: 'mod_nw_src', ipv4_src: 'mod_nw_src',
  eth_dst: 'mod_dl_dst', dl_dst: 'mod_dl_dst', eth_src: 'mod_dl_src', dl_src: 'mod_dl_src',
  tcp_dst: 'mod_tp_dst', udp_dst: 'mod_tp_dst', tp_dst: 'mod_tp_dst', tcp_src: 'mod_tp_src', udp_src: 'mod_tp_src', tp_src: 'mod_tp_src',
};

export function normAction(a: string, ports: Map<string, number>): string | undefined {
  const t = a.trim();
  const low = t.toLowerCase();
  if (low === 'drop') return undefined;
  if (['normal', 'flood', 'all', 'local', 'in_port'].includes(low)) return low.toUpperCase();
  if (low === 'controller') return 'CONTROLLER:65535';
  if (low === 'strip_vlan' || low === 'pop_vlan') return 'strip_vlan';
  if (/^\d+$/.test(t) || ports.has(unquote(t))) return `output:${normPort(t, ports)}`;
  let m = /^output:(.+)$/i.exec(t);
  if (m) return `output:${normPort(m[1], ports)}`;
  m = /^goto_table:(\d+)$/i.exec(t);
  if (m) return `resubmit(,${m[1]})`;
  m = /^set_field:(.+)->(\w+)$/i.exec(t);
  if (m) {
    const [, value, field] = m;
    const reg = /^(x?reg)(\d+)$/.exec(field.toLowerCase());
    if (reg) return `load:${value}->NXM_NX_${reg[1].toUpperCase()}${reg[2]}[]`;
    const mod = SET_FIELD_ACTIONS[field.toLowerCase()];
    if (mod) return `${mod}:${isMac(value) ? value.toLowerCase() : value}`;
    return t;
  }
  m = /^(mod_dl_dst|mod_dl_src):(.+)$/i.exec(t);
  if (m) return `${m[1].toLowerCase()}:${m[2].toLowerCase()}`;
  m = /^(mod_tp_dst|mod_tp_src|mod_nw_dst|mod_nw_src):(.+)$/i.exec(t);
  if (m) return `${m[1].toLowerCase()}:${m[2]}`;
  return t;
}

/** Parses one flow (as written by a user or as dumped by ovs-ofctl) into its canonical form. */
export function normalizeFlow(text: string, ports: Map<string, number> = new Map()): NormFlow {
  const at = text.search(/(^|[\s,])actions=/);
  if (at < 0) throw new Error(`flow has no actions=: ${text}`);
  const head = text.slice(0, at);
  const actionText = text.slice(at).replace(/^[\s,]*actions=/, '');
  let table = 0;
  let priority = 32768;
  const match = new Set<string>();
  for (const term of splitTop(head, /[\s,]/)) {
    const eq = term.indexOf('=');
    const k = (eq < 0 ? term : term.slice(0, eq)).toLowerCase();
    const v = eq < 0 ? '' : term.slice(eq + 1);
    if (IGNORED.has(k)) continue;
    if (k === 'table') table = Number(v);
    else if (k === 'priority') priority = Number(v);
    else if (eq < 0 && PROTOS[k]) PROTOS[k].forEach((p) => match.add(p));
    else if (eq < 0) match.add(k);
    else if ((k === 'idle_timeout' || k === 'hard_timeout' || k === 'importance') && Number(v) === 0) continue;
    else {
      const field = FIELD_ALIASES[k] ?? k;
      match.add(`${field}=${normValue(field, v, ports)}`);
    }
  }
  const actions = splitTop(actionText.trim(), /,/).map((a) => normAction(a, ports)).filter((a): a is string => a !== undefined);
  const sorted = [...match].sort();
  const key = [`table=${table}`, `priority=${priority}`, ...sorted].join(',');
  return { table, priority, match: sorted, actions, key, canon: `${key} actions=${actions.length ? actions.join(',') : 'drop'}` };
}
