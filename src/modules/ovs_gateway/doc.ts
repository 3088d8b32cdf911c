import type { ModuleDoc } from '../types.js';

export const ovsGatewayDoc: ModuleDoc = {
  description:
    'The gateway bridge br-ex of OVN-Kubernetes, as OpenShift\'s configure-ovs makes it. mode no_uplink: br-ex alone ' +
    '(MicroShift), an ordinary idempotent bridge. mode uplink: the node\'s NIC - MAC, MTU, addresses or DHCP, routes; ' +
    'IPv6 from router advertisements (SLAAC) or DHCPv6 keeps the same addresses (the same interface identifier, DUID ' +
    'and IAID: systemd-networkd on the bridge with the ovs backend, NetworkManager\'s ovs-if-br-ex with the nm backend) - ' +
    'moves onto br-ex (and /etc/ovnk/extra_bridge\'s NIC onto br-ex1) through one commit-confirmed transaction on the ' +
    'host: the host rolls itself back unless hostwire confirms that the check targets still answer through the bridge. ' +
    'Through NetworkManager\'s OVS profiles where its plugin exists, else ovs-vsctl and iproute2.',
  args: {
    mode: 'no_uplink (br-ex alone) or uplink (the NIC and its IP move onto br-ex).',
    bridge: 'The gateway bridge.',
    extra_bridge: 'The second bridge for /etc/ovnk/extra_bridge\'s NIC.',
    datapath_type: 'auto (system where the kernel has the openvswitch module, else netdev), system (kernel) or netdev.',
    backend: 'auto (NetworkManager where its OVS plugin exists), nm or ovs.',
    uplink: 'Force this NIC as the uplink instead of MCO\'s choice.',
    node_ip: 'The node IP hint (default: /run/nodeip-configuration/primary-ip).',
    metric: 'The metric of the bridge\'s default route.',
    extra_metric: 'The metric of the extra bridge\'s default route.',
    mtu: 'The bridge\'s MTU, 1280-9216 (checked against the device\'s maximum on the host).',
    mac: 'no_uplink: br-ex\'s fixed MAC (default derived from /etc/machine-id).',
    gateway: 'Use this IPv4 default gateway on the bridge instead of the uplink\'s (static uplinks).',
    check_targets: 'Addresses that must answer through the bridge after the move (default: the IPv4 default gateway, else the IPv6 one). They check a move; changing them alone moves nothing.',
    confirm_timeout: 'Seconds the host waits for the confirmation before it rolls back.',
    apply_timeout: 'Seconds the host gives the move itself (applying and checking, before the confirmation window opens); a step that hangs past them is stopped and the host rolls back on its own.',
    confirm: 'false withholds the confirmation (a rollback drill).',
    drop_kernel_ingress: 'Drop the kernel\'s own ingress on the uplink (needed by netdev); auto: when netdev.',
    nm_unmanaged: 'no_uplink: tell NetworkManager to leave br-ex alone, when it runs.',
  },
  example: '- ovs_gateway:\n    mode: uplink\n    check_targets: [192.0.2.1]\n    confirm_timeout: 60',
  check: 'full',
  diff: 'full',
};
