// A DHCP uplink held by ifupdown's ISC dhclient (Debian without NetworkManager: `iface eth0 inet dhcp`). The move
// has systemd-networkd take the lease on the bridge with dhclient's own client identifier (RFC 4361: 0xff, the
// IAID - the MAC's low 4 bytes - and the DUID of its lease file, as ifupdown's `dhclient -i` sends it), stops that
// dhclient without a release, and makes the port's stanza `inet manual` (ifupdown at boot then brings it up without
// a DHCP client, its shutdown releases nothing); the reverse move puts the stanza back and has ifupdown run
// dhclient again. Any other shape of a dhclient-held lease is refused before any change.
import { HostwireError } from '../../errors.js';
import type { Section } from '../../probe/sections.js';

export interface IfupdownState {
  /** `ifquery --state`: the physical interfaces ifupdown configured. */
  up: string[];
  /** The `iface` lines of /etc/network/interfaces and interfaces.d/*. */
  stanzas: { file: string; text: string }[];
  /** Running dhclient processes: their argv (NULs as spaces). */
  dhclients: { pid: number; argv: string[] }[];
  /** Lines of /etc/dhcp/dhclient.conf that name dhcp-client-identifier (not comments). */
  clientIdLines: string[];
  /** Lease file -> the DUID recorded in it (`default-duid`), hex bytes `00:01:...`. */
  duids: Record<string, string>;
}

/** The uplink's ifupdown DHCP: the stanza to make `inet manual` while moved, and the client id networkd sends. */
export interface IfupdownLease {
  file: string;
  line: string;
  duid: string;
  iaid: number;
}

export const IFUPDOWN_PROBE = [
  'command -v ifquery >/dev/null 2>&1 && ifquery --state 2>/dev/null | sed "s/^/@@up /"',
  'for f in /etc/network/interfaces /etc/network/interfaces.d/*; do [ -f "$f" ] && grep "^[[:space:]]*iface[[:space:]]" "$f" | sed "s|^|@@iface $f |"; done',
  'for p in /proc/[0-9]*; do [ "$(cat "$p/comm" 2>/dev/null)" = dhclient ] && echo "@@dhclient ${p#/proc/} $(tr "\\000" " " <"$p/cmdline" 2>/dev/null)"; done',
  'grep -h dhcp-client-identifier /etc/dhcp/dhclient.conf 2>/dev/null | grep -v "^[[:space:]]*#" | sed "s/^/@@clientid /"',
  'for f in /var/lib/dhcp/*.leases; do [ -f "$f" ] && grep "^default-duid " "$f" | tail -n 1 | sed "s|^|@@duid $f |"; done',
  'true',
].join('; ');

/** ISC's quoted string (`"\000\001..."`: octal escapes, other characters as they are) -> hex bytes. */
export function iscStringHex(quoted: string): string | undefined {
  const m = /^"((?:[^"\\]|\\.)*)"/.exec(quoted.trim());
  if (!m) return undefined;
  const bytes: number[] = [];
  const s = m[1]!;
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') { bytes.push(s.charCodeAt(i)); continue; }
    const oct = /^[0-7]{3}/.exec(s.slice(i + 1));
    if (oct) { bytes.push(parseInt(oct[0], 8)); i += 3; } else { bytes.push(s.charCodeAt(i + 1)); i += 1; }
  }
  if (!bytes.length || bytes.some((b) => b > 255)) return undefined;
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}

export function parseIfupdown(sec: Section | undefined): IfupdownState | undefined {
  if (!sec) return undefined;
  const st: IfupdownState = { up: [], stanzas: [], dhclients: [], clientIdLines: [], duids: {} };
  for (const raw of sec.out.split('\n')) {
    const [tag, ...rest] = raw.split(' ');
    const body = rest.join(' ');
    if (tag === '@@up') { const m = /^([^=\s]+)=/.exec(body); if (m) st.up.push(m[1]!); }
    if (tag === '@@iface' && rest.length > 1) st.stanzas.push({ file: rest[0]!, text: rest.slice(1).join(' ') });
    if (tag === '@@dhclient' && /^\d+$/.test(rest[0] ?? '')) st.dhclients.push({ pid: Number(rest[0]), argv: rest.slice(1).filter(Boolean) });
    if (tag === '@@clientid') st.clientIdLines.push(body.trim());
    if (tag === '@@duid' && rest.length > 2) {
      const hex = iscStringHex(rest.slice(2).join(' ').replace(/;\s*$/, ''));
      if (hex) st.duids[rest[0]!] = hex;
    }
  }
  return st;
}

const argAfter = (argv: string[], flag: string) => { const i = argv.indexOf(flag); return i >= 0 ? argv[i + 1] : undefined; };
const shown = (v: string) => JSON.stringify(v.slice(0, 120));
const STANZA_FILE = /^\/etc\/network\/interfaces(\.d\/[A-Za-z0-9_.-]+)?$/;

function refuse(iface: string, why: string): never {
  throw new HostwireError('command-failed', `ovs_gateway: the DHCP lease of ${shown(iface)} is held by ISC dhclient, ${why}. hostwire moves a dhclient lease only as ifupdown runs it `
    + `(\`iface ${iface} inet dhcp\` alone, \`dhclient -i\`: a DUID-based client identifier systemd-networkd can send again on the bridge); change that first, or hold the lease with NetworkManager or systemd-networkd.`);
}

/** The dhclient that holds `iface`'s IPv4 lease, as ifupdown started it (undefined: no dhclient on it); anything else is refused. */
export function ifupdownLease(s: { ifupdown?: IfupdownState }, iface: string, mac: string): IfupdownLease | undefined {
  const st = s.ifupdown;
  const mine = (st?.dhclients ?? []).filter((d) => d.argv[d.argv.length - 1] === iface);
  if (!st || !mine.length) return undefined;
  if (mine.length > 1 || mine.some((d) => d.argv.includes('-6'))) refuse(iface, `${mine.length} dhclient processes run on it (${mine.map((d) => shown(d.argv.join(' '))).join(', ')})`);
  const d = mine[0]!;
  const cmd = shown(d.argv.join(' '));
  if (argAfter(d.argv, '-pf') !== `/run/dhclient.${iface}.pid` || !st.up.includes(iface)) refuse(iface, `not started by ifupdown (pid ${d.pid}: ${cmd}; ifupdown has ${st.up.length ? st.up.join(', ') : 'no interface'} up)`);
  // Compared word by word: the interface name is the host's, never part of a regular expression.
  const words = (x: { text: string }) => x.text.trim().split(/\s+/);
  const own = st.stanzas.filter((x) => words(x)[0] === 'iface' && words(x)[1] === iface && words(x).length > 2);
  const dhcp = own.filter((x) => words(x).join(' ') === `iface ${iface} inet dhcp`);
  if (own.length !== 1 || dhcp.length !== 1) refuse(iface, `but its ifupdown stanzas are not one \`iface ${iface} inet dhcp\` (found: ${own.map((x) => `${shown(x.text)} in ${x.file}`).join('; ') || 'none'})`);
  const stanza = dhcp[0]!;
  if (!STANZA_FILE.test(stanza.file)) refuse(iface, `its stanza is in ${shown(stanza.file)}, not /etc/network/interfaces or interfaces.d`);
  if (!d.argv.includes('-i')) refuse(iface, `which sends no client identifier (no -i: ifupdown's \`client no\`; pid ${d.pid}: ${cmd}), and systemd-networkd always sends one - the server may give the bridge another address`);
  if (st.clientIdLines.length) refuse(iface, `with a client identifier of its own in /etc/dhcp/dhclient.conf (${shown(st.clientIdLines.join('; '))})`);
  const duid = [argAfter(d.argv, '-lf'), argAfter(d.argv, '-df')].map((f) => (f ? st.duids[f] : undefined)).find(Boolean);
  if (!duid || duid.split(':').length < 4) refuse(iface, `but no DUID is recorded in its lease files (${cmd})`);
  // dhclient's IAID: the interface's hardware address, its low 4 bytes (big-endian, as networkd's IAID= sends it).
  const iaid = parseInt(mac.split(':').slice(-4).join(''), 16);
  return { file: stanza.file, line: stanza.text, duid, iaid };
}

/** <bridge>.env/.prev lines (none without ifupdown: files of earlier runs stay equal). */
export function ifupdownEnvPairs(l: IfupdownLease | undefined): [string, string][] {
  return l ? [['IFUPDOWN_FILE', l.file], ['IFUPDOWN_LINE', l.line], ['DUID4', l.duid], ['IAID4', String(l.iaid)]] : [];
}

export function ifupdownFromEnv(v: Record<string, string>): IfupdownLease | undefined {
  if (!v.IFUPDOWN_FILE || !STANZA_FILE.test(v.IFUPDOWN_FILE) || !/^\s*iface\s+\S+\s+inet\s+dhcp\s*$/.test(v.IFUPDOWN_LINE ?? '')) return undefined;
  if (!/^[0-9a-f]{2}(:[0-9a-f]{2})+$/.test(v.DUID4 ?? '') || !/^\d+$/.test(v.IAID4 ?? '')) return undefined;
  return { file: v.IFUPDOWN_FILE, line: v.IFUPDOWN_LINE!, duid: v.DUID4!, iaid: Number(v.IAID4) };
}
