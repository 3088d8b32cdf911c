// ovs_gateway's arguments (the configure_ovs role passes its configure_ovs_* variables here).
import { z } from 'zod';

const iface = z.string().regex(/^[A-Za-z0-9_.:@-]{1,15}$/, 'an interface name (1-15 characters)');
const mac = z.string().regex(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i, 'a MAC address like 02:00:00:00:00:01');

export const ovsGatewayArgs = z
  .object({
    /** no_uplink: br-ex alone (MicroShift); uplink: the NIC and its IP move onto br-ex (MCO). */
    mode: z.enum(['no_uplink', 'uplink']),
    bridge: iface.default('br-ex'),
    extra_bridge: iface.default('br-ex1'),
    datapath_type: z.string().min(1).default('system'),
    /** auto: NetworkManager ovs profiles where NM's OVS plugin exists, else ovs-vsctl + iproute2. */
    backend: z.enum(['auto', 'nm', 'ovs']).default('auto'),
    /** Force the uplink instead of MCO's choice. */
    uplink: iface.optional(),
    /** Node IP hint (MCO's /run/nodeip-configuration/primary-ip is read when unset). */
    node_ip: z.string().optional(),
    metric: z.number().int().min(0).default(48),
    extra_metric: z.number().int().min(0).default(49),
    mtu: z.number().int().min(576).max(65535).optional(),
    /** no_uplink: br-ex's fixed MAC (default: derived from /etc/machine-id). */
    mac: mac.optional(),
    /** Use this default gateway on the bridge instead of the uplink's (static uplinks). */
    gateway: z.string().optional(),
    /** Addresses that must answer through the bridge after the move (default: the default gateway). */
    check_targets: z.array(z.string()).optional(),
    /** Seconds the host waits for hostwire's confirmation before it rolls back. */
    confirm_timeout: z.number().int().min(5).max(3600).default(60),
    /** false withholds the confirmation (a rollback drill). */
    confirm: z.boolean().default(true),
    /** Drop the kernel's own ingress on the uplink (needed by the netdev datapath); auto = when netdev. */
    drop_kernel_ingress: z.union([z.boolean(), z.literal('auto')]).default('auto'),
    /** Tell NetworkManager to leave br-ex alone (no_uplink), when NM runs. */
    nm_unmanaged: z.boolean().default(true),
  })
  .strict();

export type OvsGatewayArgs = z.infer<typeof ovsGatewayArgs>;
