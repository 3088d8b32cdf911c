import type { ModuleDoc } from '../types.js';
import { UNMAPPED } from './nmcli-args.js';

const refused = 'Refused: not built in hostwire\'s nmcli.';
const ipv = (v: 4 | 6, what: string) => `${what} (IPv${v}; only without master).`;

export const nmcliDoc: ModuleDoc = {
  description:
    "community.general.nmcli (6.6.2) as an alias of hostwire's nm_connection, for ethernet, bridge, bridge-slave, bond, " +
    'bond-slave, vlan and generic connections: the module\'s argument names, defaults, settings and change detection (only ' +
    'the settings it sets are compared), its commands (nmcli con add / modify / down + del) and result fields (Exists or ' +
    'Connection, stdout of the last command). As the module does, a new connection is brought up only when it is an ' +
    'ethernet or bond given mtu or DNS, and a modified one is not re-activated. Other types and the module\'s other ' +
    'arguments are refused by name.',
  args: {
    conn_name: 'The connection name (con-name); ifname defaults to it when the connection is created.',
    state: 'present or absent (required).',
    type: 'ethernet, bridge, bridge-slave, bond, bond-slave, vlan or generic (needed to create).',
    ifname: 'connection.interface-name.',
    master: 'The master connection of a bond-slave or bridge-slave (IP settings are then not set).',
    autoconnect: 'connection.autoconnect (default yes).',
    zone: 'connection.zone (a firewalld zone).',
    ip4: ipv(4, 'Addresses, a bare address as /32; method4 becomes manual'),
    gw4: ipv(4, 'The gateway'),
    gw4_ignore_auto: ipv(4, 'ipv4.ignore-auto-routes'),
    route_metric4: ipv(4, 'ipv4.route-metric'),
    never_default4: ipv(4, 'ipv4.never-default (not with gw4)'),
    dns4: ipv(4, 'DNS servers'),
    dns4_search: ipv(4, 'DNS search domains'),
    dns4_ignore_auto: ipv(4, 'ipv4.ignore-auto-dns'),
    method4: ipv(4, 'auto, link-local, manual, shared or disabled'),
    may_fail4: ipv(4, 'ipv4.may-fail (default yes)'),
    ip6: ipv(6, 'Addresses, a bare address as /128; method6 becomes manual'),
    gw6: ipv(6, 'The gateway'),
    gw6_ignore_auto: ipv(6, 'ipv6.ignore-auto-routes'),
    dns6: ipv(6, 'DNS servers'),
    dns6_search: ipv(6, 'DNS search domains'),
    dns6_ignore_auto: ipv(6, 'ipv6.ignore-auto-dns'),
    route_metric6: ipv(6, 'ipv6.route-metric'),
    method6: ipv(6, 'ignore, auto, dhcp, link-local, manual, shared or disabled'),
    mode: 'Bond mode (default balance-rr).',
    miimon: 'Bond MII link monitoring interval (ms).',
    downdelay: 'Bond down delay (ms).',
    updelay: 'Bond up delay (ms).',
    xmit_hash_policy: 'Bond transmit hash policy (+bond.options).',
    arp_interval: 'Bond ARP monitoring interval (ms).',
    arp_ip_target: 'Bond ARP target.',
    primary: 'Bond primary interface.',
    mtu: '802-3-ethernet.mtu (ethernet and vlan connections).',
    mac: 'The cloned MAC address (bridge.mac-address for a bridge).',
    stp: 'Bridge STP (default yes).',
    priority: 'Bridge priority (default 128; set only with STP).',
    slavepriority: 'Bridge port priority (default 32).',
    forwarddelay: 'Bridge forward delay (default 15).',
    hellotime: 'Bridge hello time (default 2).',
    maxage: 'Bridge max age (default 20).',
    ageingtime: 'Bridge ageing time (default 300).',
    hairpin: 'Bridge port hairpin mode (unset means no, as the module sets it).',
    path_cost: 'Bridge port path cost (default 100).',
    vlanid: 'VLAN id.',
    vlandev: 'VLAN parent device.',
    flags: 'vlan.flags.',
    ingress: 'vlan.ingress priority map.',
    egress: 'vlan.egress priority map.',
    ignore_unsupported_suboptions: 'Must be false (it only matters for wifi).',
    ...Object.fromEntries(UNMAPPED.map((k) => [k, refused])),
  },
  example: '- nmcli:\n    conn_name: br0\n    type: bridge\n    ifname: br0\n    ip4: 192.0.2.10/24\n    gw4: 192.0.2.1\n    stp: false\n    state: present',
  check: 'full',
  diff: 'full',
};
