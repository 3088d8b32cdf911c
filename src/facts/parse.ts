// Pure parsers from the fact commands' output to Ansible-like fact names.
import { ProbeParseError } from '../engine/errors.js';

type Json = Record<string, unknown>;

export function parseOsRelease(text: string): Json {
  const kv: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) kv[m[1]] = m[2].replace(/^"(.*)"$/, '$1');
  }
  const id = kv.ID ?? 'unknown';
  const family: Record<string, string> = { debian: 'Debian', ubuntu: 'Debian', rhel: 'RedHat', centos: 'RedHat', fedora: 'RedHat', rocky: 'RedHat', almalinux: 'RedHat' };
  return {
    ansible_distribution: kv.NAME?.split(' ')[0] ?? id,
    ansible_distribution_version: kv.VERSION_ID ?? '',
    ansible_distribution_major_version: (kv.VERSION_ID ?? '').split('.')[0],
    ansible_distribution_release: kv.VERSION_CODENAME ?? '',
    ansible_os_family: family[id] ?? (kv.ID_LIKE?.includes('rhel') ? 'RedHat' : kv.ID_LIKE?.includes('debian') ? 'Debian' : id),
    hostwire_os_id: id,
  };
}

export function parseLines(text: string): string[] {
  return text.split('\n').map((l) => l.trim()).filter(Boolean);
}

function parseJson(text: string, what: string): unknown[] {
  const t = text.trim();
  if (!t) return [];
  try {
    const v = JSON.parse(t);
    return Array.isArray(v) ? v : [];
  } catch (err) {
    throw new ProbeParseError(`cannot parse ${what} output as JSON`, text, err);
  }
}

interface IpAddrInfo { family: string; local: string; prefixlen: number; scope?: string }
interface IpLink { ifname: string; mtu?: number; address?: string; operstate?: string; flags?: string[]; link_type?: string; addr_info?: IpAddrInfo[] }

export function parseAddresses(text: string): Json {
  const links = parseJson(text, 'ip -j addr') as IpLink[];
  const facts: Json = { ansible_interfaces: links.map((l) => l.ifname) };
  const all4: string[] = [];
  const all6: string[] = [];
  for (const l of links) {
    const v4 = (l.addr_info ?? []).filter((a) => a.family === 'inet');
    const v6 = (l.addr_info ?? []).filter((a) => a.family === 'inet6');
    for (const a of v4) if (l.ifname !== 'lo') all4.push(a.local);
    for (const a of v6) if (a.scope === 'global') all6.push(a.local);
    facts[`ansible_${l.ifname.replace(/[^A-Za-z0-9_]/g, '_')}`] = {
      device: l.ifname,
      mtu: l.mtu,
      macaddress: l.address,
      active: (l.flags ?? []).includes('UP'),
      operstate: l.operstate,
      type: l.link_type,
      ipv4: v4[0] ? { address: v4[0].local, prefix: String(v4[0].prefixlen) } : undefined,
      ipv4_secondaries: v4.slice(1).map((a) => ({ address: a.local, prefix: String(a.prefixlen) })),
      ipv6: v6.map((a) => ({ address: a.local, prefix: String(a.prefixlen), scope: a.scope })),
    };
  }
  facts.ansible_all_ipv4_addresses = all4;
  facts.ansible_all_ipv6_addresses = all6;
  return facts;
}

interface IpRoute { dst: string; gateway?: string; dev?: string; metric?: number }

/** The default route's interface, gateway and that interface's address (Ansible's ansible_default_ipv4). */
export function parseDefaultRoute(text: string, addresses: Json, family: 4 | 6): Json | undefined {
  const routes = (parseJson(text, 'ip -j route') as IpRoute[]).filter((r) => r.dst === 'default');
  routes.sort((a, b) => (a.metric ?? 0) - (b.metric ?? 0));
  const r = routes[0];
  if (!r?.dev) return undefined;
  const iface = addresses[`ansible_${r.dev.replace(/[^A-Za-z0-9_]/g, '_')}`] as Json | undefined;
  const addr = family === 4 ? (iface?.ipv4 as Json | undefined) : ((iface?.ipv6 as Json[] | undefined) ?? []).find((a) => a.scope === 'global');
  return { interface: r.dev, gateway: r.gateway, metric: r.metric, address: addr?.address, prefix: addr?.prefix, macaddress: iface?.macaddress, mtu: iface?.mtu };
}

export function parseMeminfo(text: string): Json {
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { ansible_memtotal_mb: Math.floor(kb('MemTotal') / 1024), ansible_memfree_mb: Math.floor(kb('MemFree') / 1024), ansible_swaptotal_mb: Math.floor(kb('SwapTotal') / 1024) };
}

export function parseNetworkManager(text: string): Json {
  const lines = parseLines(text);
  if (lines[0] === 'absent' || lines.length === 0) return { hostwire_nm_present: false, hostwire_nm_running: false, hostwire_nm_plugins: [] };
  const plugins = lines.slice(1).map((l) => /libnm-device-plugin-([\w-]+)\.so$/.exec(l)?.[1]).filter((x): x is string => Boolean(x));
  return { hostwire_nm_present: true, hostwire_nm_running: lines[0] === 'running', hostwire_nm_plugins: plugins };
}

export function parseOvs(text: string): Json {
  const line = text.trim();
  if (!line || line === 'absent') return { hostwire_ovs_present: false, hostwire_ovs_version: null };
  return { hostwire_ovs_present: true, hostwire_ovs_version: /(\d+\.\d+(\.\d+)?)/.exec(line)?.[1] ?? null };
}

export function parseFirewalld(text: string): Json {
  const s = text.trim();
  return { hostwire_firewalld_present: s !== 'absent', hostwire_firewalld_running: s === 'active' };
}
