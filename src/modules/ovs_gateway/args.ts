// ovs_gateway's arguments (the configure_ovs role passes its configure_ovs_* variables here).
import { isIP, isIPv4 } from 'node:net';
import { z } from 'zod';

const iface = z.string().regex(/^[A-Za-z0-9_.:@-]{1,15}$/, 'an interface name (1-15 characters)');
const mac = z.string().regex(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i, 'a MAC address like 02:00:00:00:00:01');
// Addresses reach the host's routes and pings: only a well-formed IPv4/IPv6 address passes.
const ipv4 = z.string().refine((v) => isIPv4(v), 'expected an IPv4 address like 192.0.2.1');
const ipAny = z.string().refine((v) => isIP(v) !== 0, 'expected an IPv4 or IPv6 address');

export const ovsGatewayArgs = z
  .object({
    /** no_uplink: br-ex alone (MicroShift); uplink: the NIC and its IP move onto br-ex (MCO). */
    mode: z.enum(['no_uplink', 'uplink']),
    bridge: iface.default('br-ex'),
    extra_bridge: iface.default('br-ex1'),
    /** auto: system where the kernel has the openvswitch module, else netdev. */
    datapath_type: z.string().regex(/^[a-z]{1,16}$/, 'a datapath type: auto, system or netdev').default('auto'),
    /** auto: NetworkManager ovs profiles where NM's OVS plugin exists, else ovs-vsctl + iproute2. */
    backend: z.enum(['auto', 'nm', 'ovs']).default('auto'),
    /** Force the uplink instead of MCO's choice. */
    uplink: iface.optional(),
    /** Node IP hint (MCO's /run/nodeip-configuration/primary-ip is read when unset). */
    node_ip: ipAny.optional(),
    metric: z.number().int().min(0).default(48),
    extra_metric: z.number().int().min(0).default(49),
    /** 1280..9216: IPv6's minimum to the largest jumbo frame NICs take (the device's own maximum is checked on the host). */
    mtu: z.number().int().min(1280).max(9216).optional(),
    /** no_uplink: br-ex's fixed MAC (default: derived from /etc/machine-id). */
    mac: mac.optional(),
    /** Use this default gateway on the bridge instead of the uplink's (static uplinks). */
    gateway: ipv4.optional(),
    /** Addresses that must answer through the bridge after the move (default: the default gateway). */
    check_targets: z.array(ipAny).min(1).optional(),
    /** Seconds the host waits for hostwire's confirmation before it rolls back. */
    confirm_timeout: z.number().int().min(5).max(3600).default(60),
    /** Seconds the host gives the move itself (apply and checks) before the window: past them it rolls back on its own. */
    apply_timeout: z.number().int().min(10).max(3600).default(600),
    /** false withholds the confirmation (a rollback drill). */
    confirm: z.boolean().default(true),
    /** Drop the kernel's own ingress on the uplink (needed by the netdev datapath); auto = when netdev. */
    drop_kernel_ingress: z.union([z.boolean(), z.literal('auto')]).default('auto'),
    /** Tell NetworkManager to leave br-ex alone (no_uplink), when NM runs. */
    nm_unmanaged: z.boolean().default(true),
  })
  .strict()
  .refine((a) => a.bridge !== a.extra_bridge, (a) => ({ message: `bridge and extra_bridge are both ${a.bridge}`, path: ['extra_bridge'] }))
  .refine((a) => a.uplink === undefined || (a.uplink !== a.bridge && a.uplink !== a.extra_bridge), (a) => ({ message: `uplink ${a.uplink} is one of the OVS bridges`, path: ['uplink'] }));

export type OvsGatewayArgs = z.infer<typeof ovsGatewayArgs>;
