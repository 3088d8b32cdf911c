// Shared by the nm-backend scenarios (configure_ovs with NetworkManager's OVS profiles, `lab up --nm-ovs`):
// what NM shows active, and the profile set the move must leave active.

/** NM's active connections, sorted; the netdev datapath's tap for br-ex shows up as an external `tun` connection too: left out. */
export const ACTIVE_PROFILES = 'nmcli -t -f NAME,TYPE,DEVICE connection show --active | grep -v "^lo:\\|:tun:" | sort';

/** MCO's five profiles for `bridge` with `nic` its port (phys0 for br-ex, phys1 for br-ex1), as ACTIVE_PROFILES prints them. */
export const brExProfiles = (nic: string, bridge = 'br-ex', phys = 0): string =>
  `${bridge}:ovs-bridge:${bridge}\novs-if-${bridge}:ovs-interface:${bridge}\novs-if-phys${phys}:802-3-ethernet:${nic}\novs-port-${bridge}:ovs-port:${bridge}\novs-port-phys${phys}:ovs-port:${nic}\n`;

/** Lines as a sorted list (NM's `sort` orders `br-ex1:` and `br-ex:` by the locale). */
export const lineSet = (text: string): string[] => text.split('\n').filter(Boolean).sort();

/** NM's view of the devices, sorted (`eth0:connected (externally):eth0` for a NIC it holds without a profile). */
export const NM_DEVICES = 'nmcli -t -f DEVICE,STATE,CONNECTION device | sort';

/** ovs-if-br-ex's IP settings as nmcli prints them (`-g`: values only, one a line). */
export const IF_BR_EX_IP = 'nmcli -g ipv4.method,ipv4.addresses,ipv4.gateway,ipv4.route-metric,ipv4.dns,ipv6.method,ipv6.addresses,ipv6.gateway,ipv6.route-metric,ipv6.dns connection show ovs-if-br-ex';

/** A recording's `@@name` sections (test/modules/ovs-gateway-nm*.test.ts read src/modules/ovs_gateway/cases/nm-*.txt). */
export function sections(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let cur = '';
  for (const line of text.split('\n')) {
    const m = /^@@([\w-]+)$/.exec(line);
    if (m) { cur = m[1]!; if (!out.has(cur)) out.set(cur, []); continue; }
    if (cur) out.get(cur)!.push(line);
  }
  return out;
}

/** `nmcli -t -f a,b` lines as { a: value }. */
export const props = (lines: string[]) => Object.fromEntries(lines.filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]));
