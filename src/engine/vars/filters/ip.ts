// ansible.utils ipaddr-family filters (ipaddr, ipv4, ipv6, ipmath, ipsubnet, network_in_usable,
// network_in_network), following ansible.utils' plugin_utils/base/ipaddr_utils.py query by query.
import { TemplateFailure } from '../undefined.js';
import type { Fn } from './args.js';
import {
  bitsOf, cidrOf, hasBroadcast, ipToString, last, mask, network, parseNet, size, str, typeOf, type Net,
} from './ip-net.js';

type Query = (n: Net, value: string) => unknown;

const firstLast = (n: Net): [bigint, bigint] =>
  size(n) === 2n ? [network(n), last(n)] : [network(n) + 1n, last(n) - 1n];
const needNetwork = (n: Net): void => {
  if (n.vtype === 'address') throw new TemplateFailure('Not a network address');
};
const ipQuery: Query = (n) => (size(n) === 1n || n.ip !== network(n) || !hasBroadcast(n) || n.version === 6 ? str(n.ip, n) : null);

const QUERIES: Record<string, Query> = {
  '': (n) => (n.vtype === 'address' ? str(n.ip, n) : cidrOf(n)),
  address: ipQuery,
  ip: ipQuery,
  bool: () => true,
  broadcast: (n) => (hasBroadcast(n) ? str(last(n), n) : null),
  cidr: cidrOf,
  subnet: (n) => `${str(network(n), n)}/${n.prefix}`,
  'network/prefix': (n) => `${str(network(n), n)}/${n.prefix}`,
  host: (n) => (size(n) === 1n ? cidrOf(n) : n.ip !== network(n) || !hasBroadcast(n) ? cidrOf(n) : null),
  'host/prefix': (n) => (size(n) > 2n && (n.ip === network(n) || n.ip === last(n)) ? false : cidrOf(n)),
  'ip/prefix': (n) => (size(n) === 2n || (size(n) > 1n && n.ip !== network(n)) ? cidrOf(n) : null),
  net: (n) => (size(n) > 1n && n.ip === network(n) ? `${str(network(n), n)}/${n.prefix}` : null),
  network: (n) => str(network(n), n),
  network_id: (n) => str(network(n), n),
  netmask: (n) => str(mask(n), n),
  hostmask: (n) => str(mask(n) ^ ((1n << BigInt(bitsOf(n))) - 1n), n),
  prefix: (n) => n.prefix,
  size: (n) => Number(size(n)),
  size_usable: (n) => (size(n) === 1n ? 0 : size(n) === 2n ? 2 : Number(size(n) - 2n)),
  first_usable: (n) => (needNetwork(n), size(n) > 1n ? str(firstLast(n)[0], n) : null),
  last_usable: (n) => (needNetwork(n), size(n) > 1n ? str(firstLast(n)[1], n) : null),
  range_usable: (n) => (needNetwork(n), size(n) > 1n ? `${str(firstLast(n)[0], n)}-${str(firstLast(n)[1], n)}` : null),
  next_usable: (n) => (needNetwork(n), size(n) > 1n && n.ip + 1n <= firstLast(n)[1] && n.ip + 1n >= firstLast(n)[0] ? str(n.ip + 1n, n) : null),
  previous_usable: (n) => (needNetwork(n), size(n) > 1n && n.ip - 1n >= firstLast(n)[0] && n.ip - 1n <= firstLast(n)[1] ? str(n.ip - 1n, n) : null),
  type: typeOf,
  version: (n) => n.version,
  int: (n) => (n.vtype === 'address' ? Number(n.ip) : `${n.ip}/${n.prefix}`),
  wrap: (n, value) => (n.version === 6 ? (n.vtype === 'address' ? `[${str(n.ip, n)}]` : `[${str(n.ip, n)}]/${n.prefix}`) : value),
  ipv4: (n, value) => (n.version === 4 ? value : false),
  ipv6: (n, value) => (n.version === 6 ? value : `::ffff:${str(n.ip, n)}/${n.prefix + 96}`),
};

/** ansible.utils ipaddr(value, query, version): the value or a property of it; False when not an IP. */
export function ipaddrFilter(value: unknown, query: unknown = '', version: 0 | 4 | 6 = 0, alias = 'ipaddr'): unknown {
  if (Array.isArray(value)) return value.map((v) => ipaddrFilter(v, query, version, alias)).filter((r) => r !== false && r !== null && r !== '');
  const n = parseNet(typeof value === 'string' ? value : undefined);
  if (!n) return false;
  if (version && n.version !== version) return false;
  const q = query === null || query === undefined ? '' : String(query);
  const fn = QUERIES[q];
  if (fn) return fn(n, String(value));
  if (/^-?\d+$/.test(q)) {
    if (size(n) === 1n) return n.vtype === 'address' ? str(n.ip, n) : cidrOf(n);
    const i = BigInt(q);
    const idx = i < 0n ? size(n) + i : i;
    if (idx < 0n || idx >= size(n)) return false;
    return `${str(network(n) + idx, n)}/${n.prefix}`;
  }
  const container = parseNet(q);
  if (container && container.vtype === 'network') {
    return network(n) >= network(container) && last(n) <= last(container) ? value : false;
  }
  throw new TemplateFailure(`${alias}: unknown filter type: ${q}`);
}

function ipmath(value: unknown, amount: unknown): string {
  const n = parseNet(value);
  if (!n) throw new TemplateFailure(`You must pass a valid IP address; ${String(value)} is invalid`);
  if (typeof amount !== 'number' || !Number.isInteger(amount)) {
    throw new TemplateFailure(`You must pass an integer for arithmetic; ${String(amount)} is not a valid integer`);
  }
  const r = n.ip + BigInt(amount);
  if (r < 0n || r >= 1n << BigInt(bitsOf(n))) throw new TemplateFailure(`ipmath: result out of range for ${String(value)}`);
  return ipToString(r, n.version);
}

function ipsubnet(value: unknown, query: unknown = '', index?: unknown): unknown {
  const given = parseNet(value);
  if (!given) return false;
  const bits = bitsOf(given);
  // Ansible normalises to the CIDR network first: "10.1.2.3/24" -> 10.1.2.0/24, "10.1.2.3" -> 10.1.2.3/32.
  const v: Net = { ...given, ip: network(given), vtype: 'network' };
  const vtype = typeOf(v);
  if (query === '' || query === null || query === undefined) return cidrOf(v);
  const q = String(query);
  if (/^\d+$/.test(q)) {
    const p = Number(q);
    if (p > bits) return false;
    if (index === undefined || index === null) {
      if (vtype === 'address') return `${str(v.ip & mask({ ...v, prefix: p }), v)}/${p}`;
      if (p < v.prefix) throw new TemplateFailure(`Requested subnet size of ${p} is invalid`);
      return String(2n ** BigInt(p - v.prefix));
    }
    let i = Math.trunc(Number(index));
    if (vtype === 'address') {
      const supernets = Array.from({ length: v.prefix - p }, (_x, k) => p + k);
      if (i < 0) i += supernets.length;
      const sp = supernets[i];
      return sp === undefined ? false : `${str(v.ip & mask({ ...v, prefix: sp }), v)}/${sp}`;
    }
    if (p < v.prefix) return false;
    const count = 1n << BigInt(p - v.prefix);
    let idx = BigInt(i);
    if (idx < 0n) idx += count;
    if (idx < 0n || idx >= count) return false;
    return `${str(network(v) + (idx << BigInt(bits - p)), v)}/${p}`;
  }
  const outer = parseNet(q);
  if (!outer) throw new TemplateFailure(`You must pass a valid subnet or IP address; ${q} is invalid`);
  if (network(v) >> BigInt(bits - outer.prefix) !== outer.ip >> BigInt(bits - outer.prefix)) {
    throw new TemplateFailure(`${cidrOf(v)} is not in the subnet ${str(network(outer), outer)}/${outer.prefix}`);
  }
  return String(((v.ip >> BigInt(bits - v.prefix)) & ((1n << BigInt(v.prefix - outer.prefix)) - 1n)) + 1n);
}

/** [first, last] of a network as network_in_* compare them (an address is its own range). */
function span(value: unknown): [bigint, bigint] | undefined {
  const n = parseNet(value);
  if (!n) return undefined;
  return hasBroadcast(n) ? [network(n), last(n)] : size(n) === 1n ? [n.ip, n.ip] : [network(n), last(n)];
}

function inRange(outer: unknown, inner: unknown, usable: boolean): boolean {
  const o = span(outer);
  const i = span(inner);
  if (!o || !i) throw new TemplateFailure(`You must pass a valid IP address or network; ${String(o ? inner : outer)} is invalid`);
  const lo = usable ? o[0] + 1n : o[0];
  const hi = usable ? o[1] - 1n : o[1];
  return i[0] >= lo && i[1] <= hi;
}

export const ipFilters: Record<string, Fn> = {
  ipaddr: (v: unknown, q?: unknown) => ipaddrFilter(v, q, 0, 'ipaddr'),
  ipv4: (v: unknown, q?: unknown) => ipaddrFilter(v, q, 4, 'ipv4'),
  ipv6: (v: unknown, q?: unknown) => ipaddrFilter(v, q, 6, 'ipv6'),
  ipwrap: (v: unknown) => (Array.isArray(v) ? v.map((x) => ipaddrFilter(x, 'wrap') || x) : ipaddrFilter(v, 'wrap') || v),
  ipmath,
  ipsubnet,
  network_in_usable: (v: unknown, test: unknown) => inRange(v, test, true),
  network_in_network: (v: unknown, test: unknown) => inRange(v, test, false),
};
