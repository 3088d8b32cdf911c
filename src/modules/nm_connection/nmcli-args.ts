// community.general.nmcli (6.6.2) argument names: the ones hostwire maps, typed as AnsibleModule
// converts them, and every other argument of the module accepted by name only to be refused with a
// clear message (nmcliRefusals) - a name the module does not know is a schema error.
import { z } from 'zod';
import { ansibleBool, ansibleInt } from '../kit/ansible-args.js';
import { oneLine } from '../kit/line-text.js';

// NM keyfiles and nmcli's terse output are line-based: no control characters in values.
const text = z.union([z.string(), z.number()]).transform(String).pipe(z.string().superRefine(oneLine('an nmcli value')));
// type list: a string is split on commas, as AnsibleModule's check_type_list does.
const list = z.union([text.transform((s) => s.split(',')), z.array(text)]);

export const NMCLI_TYPES = ['ethernet', 'bridge', 'bridge-slave', 'bond', 'bond-slave', 'vlan', 'generic'] as const;
const ALL_TYPES = [...NMCLI_TYPES, 'dummy', 'gre', 'infiniband', 'ipip', 'sit', 'team', 'team-slave', 'vxlan', 'wifi', 'gsm', 'macvlan', 'wireguard', 'vpn'] as const;

/** The module's arguments hostwire does not build: refused by name when given. */
export const UNMAPPED = [
  'dhcp_client_id', 'routes4', 'routes4_extended', 'routing_rules4', 'routes6', 'routes6_extended', 'ip_privacy6', 'addr_gen_mode6',
  'runner', 'runner_hwaddr_policy', 'runner_fast_rate', 'vxlan_id', 'vxlan_local', 'vxlan_remote', 'ip_tunnel_dev', 'ip_tunnel_local',
  'ip_tunnel_remote', 'ip_tunnel_input_key', 'ip_tunnel_output_key', 'ssid', 'wifi', 'wifi_sec', 'gsm', 'macvlan', 'wireguard', 'vpn', 'transport_mode',
] as const;

const mapped = {
  conn_name: text,
  state: z.enum(['present', 'absent']),
  type: z.enum(ALL_TYPES).optional(),
  ifname: text.optional(),
  master: text.optional(),
  autoconnect: ansibleBool.default(true),
  zone: text.optional(),
  ip4: list.optional(),
  gw4: text.optional(),
  gw4_ignore_auto: ansibleBool.default(false),
  route_metric4: ansibleInt.optional(),
  never_default4: ansibleBool.default(false),
  dns4: list.optional(),
  dns4_search: list.optional(),
  dns4_ignore_auto: ansibleBool.default(false),
  method4: z.enum(['auto', 'link-local', 'manual', 'shared', 'disabled']).optional(),
  may_fail4: ansibleBool.default(true),
  ip6: list.optional(),
  gw6: text.optional(),
  gw6_ignore_auto: ansibleBool.default(false),
  dns6: list.optional(),
  dns6_search: list.optional(),
  dns6_ignore_auto: ansibleBool.default(false),
  route_metric6: ansibleInt.optional(),
  method6: z.enum(['ignore', 'auto', 'dhcp', 'link-local', 'manual', 'shared', 'disabled']).optional(),
  mode: z.enum(['802.3ad', 'active-backup', 'balance-alb', 'balance-rr', 'balance-tlb', 'balance-xor', 'broadcast']).default('balance-rr'),
  miimon: ansibleInt.optional(),
  downdelay: ansibleInt.optional(),
  updelay: ansibleInt.optional(),
  xmit_hash_policy: text.optional(),
  arp_interval: ansibleInt.optional(),
  arp_ip_target: text.optional(),
  primary: text.optional(),
  mtu: ansibleInt.optional(),
  mac: text.optional(),
  stp: ansibleBool.default(true),
  priority: ansibleInt.default(128),
  slavepriority: ansibleInt.default(32),
  forwarddelay: ansibleInt.default(15),
  hellotime: ansibleInt.default(2),
  maxage: ansibleInt.default(20),
  ageingtime: ansibleInt.default(300),
  hairpin: ansibleBool.optional(),
  path_cost: ansibleInt.default(100),
  vlanid: ansibleInt.optional(),
  vlandev: text.optional(),
  flags: text.optional(),
  ingress: text.optional(),
  egress: text.optional(),
  ignore_unsupported_suboptions: ansibleBool.default(false),
};

const unmapped = Object.fromEntries(UNMAPPED.map((k) => [k, z.unknown().optional()])) as Record<(typeof UNMAPPED)[number], z.ZodOptional<z.ZodUnknown>>;

export const nmcliArgs = z
  .object({ ...mapped, ...unmapped })
  .strict()
  .refine((a) => !(a.never_default4 && a.gw4 !== undefined), { message: 'parameters are mutually exclusive: never_default4|gw4', path: ['gw4'] });
export type NmcliArgs = z.infer<typeof nmcliArgs>;

/** Why these arguments have no mapping in hostwire, or undefined. */
export function nmcliRefusals(a: NmcliArgs): string | undefined {
  const given = UNMAPPED.filter((k) => a[k] !== undefined && a[k] !== null);
  if (given.length) return `${given.join(', ')}: not built in hostwire's nmcli (it maps ${NMCLI_TYPES.join(', ')} connections with their addresses, DNS, gateways, MTU, MAC, bond, bridge and VLAN options)`;
  if (a.type !== undefined && !(NMCLI_TYPES as readonly string[]).includes(a.type)) return `type: ${a.type} is not built in hostwire's nmcli (it maps ${NMCLI_TYPES.join(', ')})`;
  if (a.ignore_unsupported_suboptions) return "ignore_unsupported_suboptions: not built in hostwire's nmcli (it only matters for wifi)";
  return undefined;
}
