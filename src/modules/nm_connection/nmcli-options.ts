// The NetworkManager settings community.general.nmcli (6.6.2) sets for a connection, as its
// connection_options builds them (same keys, order and conversions: bools as yes/no, unset bools as
// "no", lists joined by commas - or kept as lists to compare), and its comparison with what
// `nmcli connection show` prints (_compare_conn_params): unset values skipped, addresses compared in
// order, other lists as sets, MACs case-insensitive, bond options read from bond.options.
import type { NmcliArgs } from './nmcli-args.js';

export type OptionValue = string | string[] | undefined;
type Entries = [string, OptionValue][];

const IP_TYPES = ['bond', 'bridge', 'dummy', 'ethernet', '802-3-ethernet', 'generic', 'gre', 'infiniband', 'ipip', 'sit', 'team', 'vlan', 'wifi', '802-11-wireless', 'gsm', 'macvlan', 'wireguard', 'vpn'];
const MTU_TYPES = ['dummy', 'ethernet', 'team-slave', 'vlan'];
const SLAVE_TYPES = ['bond-slave', 'bridge-slave', 'team-slave', 'wifi'];
export const MTU_SETTING = '802-3-ethernet.mtu';
const BOOL = new Set(['bridge.stp', 'bridge-port.hairpin-mode', 'connection.autoconnect', 'ipv4.never-default', 'ipv4.ignore-auto-dns', 'ipv4.ignore-auto-routes', 'ipv4.may-fail', 'ipv6.ignore-auto-dns', 'ipv6.ignore-auto-routes']);
export const LISTS = new Set(['ipv4.addresses', 'ipv6.addresses', 'ipv4.dns', 'ipv4.dns-search', 'ipv6.dns', 'ipv6.dns-search']);

const str = (v: string | number | undefined) => (v === undefined ? undefined : String(v));
const cidr = (addrs: string[] | undefined, host: string) => addrs?.map((a) => (a.includes('/') ? a : `${a}/${host}`));

/** method4/method6 as the module derives them (manual when addresses are given). */
const method = (m: string | undefined, addrs: string[] | undefined) => m ?? (addrs ? 'manual' : undefined);

function ipOptions(a: NmcliArgs): Entries {
  return [
    ['ipv4.addresses', cidr(a.ip4, '32')], ['ipv4.dns', a.dns4], ['ipv4.dns-search', a.dns4_search], ['ipv4.ignore-auto-dns', a.dns4_ignore_auto ? 'yes' : 'no'],
    ['ipv4.gateway', a.gw4], ['ipv4.ignore-auto-routes', a.gw4_ignore_auto ? 'yes' : 'no'], ['ipv4.route-metric', str(a.route_metric4)],
    ['ipv4.never-default', a.never_default4 ? 'yes' : 'no'], ['ipv4.method', method(a.method4, a.ip4)], ['ipv4.may-fail', a.may_fail4 ? 'yes' : 'no'],
    ['ipv6.addresses', cidr(a.ip6, '128')], ['ipv6.dns', a.dns6], ['ipv6.dns-search', a.dns6_search], ['ipv6.ignore-auto-dns', a.dns6_ignore_auto ? 'yes' : 'no'],
    ['ipv6.gateway', a.gw6], ['ipv6.ignore-auto-routes', a.gw6_ignore_auto ? 'yes' : 'no'], ['ipv6.route-metric', str(a.route_metric6)],
    ['ipv6.method', method(a.method6, a.ip6)],
  ];
}

function typeOptions(a: NmcliArgs, type: string): Entries {
  const yn = (b: boolean | undefined) => (b ? 'yes' : 'no');
  switch (type) {
    case 'bond':
      return [['arp-interval', str(a.arp_interval)], ['arp-ip-target', a.arp_ip_target], ['downdelay', str(a.downdelay)], ['miimon', str(a.miimon)], ['mode', a.mode], ['primary', a.primary], ['updelay', str(a.updelay)], ['xmit_hash_policy', a.xmit_hash_policy]];
    case 'bond-slave':
      return [['connection.slave-type', 'bond']];
    case 'bridge':
      // The module sets bridge.priority only with STP on (nmcli keeps 32768 otherwise).
      return [['bridge.ageing-time', str(a.ageingtime)], ['bridge.forward-delay', str(a.forwarddelay)], ['bridge.hello-time', str(a.hellotime)], ['bridge.max-age', str(a.maxage)], ['bridge.priority', str(a.priority)], ['bridge.stp', yn(a.stp)]];
    case 'bridge-slave':
      return [['connection.slave-type', 'bridge'], ['bridge-port.path-cost', str(a.path_cost)], ['bridge-port.hairpin-mode', yn(a.hairpin)], ['bridge-port.priority', str(a.slavepriority)]];
    case 'vlan':
      return [['vlan.id', str(a.vlanid)], ['vlan.parent', a.vlandev], ['vlan.flags', a.flags], ['vlan.ingress', a.ingress], ['vlan.egress', a.egress]];
    default:
      return [];
  }
}

/**
 * The settings in the module's order. `compare` keeps lists as lists and an unset MTU as 'auto' (its
 * detect_change); otherwise lists are joined as nmcli takes them on its command line.
 */
export function nmcliOptions(a: NmcliArgs, type: string, compare: boolean): Map<string, OptionValue> {
  const o = new Map<string, OptionValue>([['connection.autoconnect', a.autoconnect ? 'yes' : 'no'], ['connection.zone', a.zone]]);
  if (IP_TYPES.includes(type) && a.master === undefined) for (const [k, v] of ipOptions(a)) o.set(k, v);
  if (a.mac !== undefined) o.set(type === 'bridge' ? 'bridge.mac-address' : '802-3-ethernet.cloned-mac-address', a.mac);
  if (MTU_TYPES.includes(type)) o.set(MTU_SETTING, compare && !a.mtu ? 'auto' : str(a.mtu));
  if (SLAVE_TYPES.includes(type)) o.set('connection.master', a.master);
  for (const [k, v] of typeOptions(a, type)) o.set(k, v);
  if (type === 'bridge' && !a.stp) o.delete('bridge.priority');
  if (!compare) for (const [k, v] of o) if (Array.isArray(v)) o.set(k, v.join(','));
  return o;
}

/** What `nmcli connection show` printed, as the module reads it (bond.options split into its aliases). */
export function shownSettings(settings: Record<string, string>): Map<string, string | string[] | undefined> {
  const out = new Map<string, string | string[] | undefined>();
  for (const [k, raw] of Object.entries(settings)) {
    if (k === 'bond.options') {
      for (const opt of raw.split(',')) {
        const at = opt.indexOf('=');
        if (at > 0) out.set(opt.slice(0, at), opt.slice(at + 1));
      }
    } else if (raw === '' || raw === '--') out.set(k, undefined);
    else if (LISTS.has(k)) out.set(k, raw.split(',').map((s) => s.trim()));
    else out.set(k, /^(-?\d+) \(\w+\)$/.exec(raw)?.[1] ?? raw);
  }
  return out;
}

export interface Compared {
  changed: boolean;
  before: Record<string, OptionValue | null>;
  after: Record<string, OptionValue | null>;
}

const sameList = (have: string[], want: string[], ordered: boolean) =>
  JSON.stringify(ordered ? have : [...have].sort()) === JSON.stringify(ordered ? want : [...want].sort());

/** The module's change detection: only the settings it would set, each against what is shown. */
export function compareOptions(shown: Map<string, string | string[] | undefined>, options: Map<string, OptionValue>, macSetting: string): Compared {
  const r: Compared = { changed: false, before: {}, after: {} };
  for (const [key, want] of options) {
    if (want === undefined || want === '' || (Array.isArray(want) && want.length === 0)) continue;
    let have = shown.has(key) ? shown.get(key) : undefined;
    let value: OptionValue = want;
    if (key === macSetting && typeof value === 'string') {
      value = value.toUpperCase();
      if (typeof have === 'string') have = have.toUpperCase();
    }
    if (Array.isArray(have) && Array.isArray(value)) r.changed ||= !sameList(have, value, key.endsWith('.addresses'));
    else if (have !== (Array.isArray(value) ? `[${value.map((x) => `'${x}'`).join(', ')}]` : value)) r.changed = true;
    r.before[key] = have ?? null;
    r.after[key] = value;
  }
  return r;
}
