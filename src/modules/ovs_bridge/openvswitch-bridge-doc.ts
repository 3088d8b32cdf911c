import type { ModuleDoc } from '../types.js';

export const openvswitchBridgeDoc: ModuleDoc = {
  description:
    "openvswitch.openvswitch.openvswitch_bridge (collection 2.1.1) as an alias of hostwire's ovs_bridge: a bridge present " +
    'or absent with its fail mode and the external ids given (others left alone), with the module\'s argument names; ' +
    'commands in the result are the ovs-vsctl commands run. set maps only as "Bridge BRIDGE datapath_type=TYPE"; ' +
    'parent/vlan (fake bridges), any other set, database_socket and a timeout other than 5 are refused by name.',
  args: {
    bridge: 'The bridge name.',
    parent: 'Refused: fake bridges are not built.',
    vlan: 'Refused: fake bridges are not built.',
    state: 'present or absent.',
    timeout: 'Must be 5 (ovs-vsctl --timeout=5, as ovs_bridge runs it).',
    external_ids: 'Keys and values set in the bridge\'s external_ids (other keys are left alone).',
    fail_mode: 'standalone or secure.',
    set: 'Only "Bridge BRIDGE datapath_type=TYPE" (the datapath type); anything else is refused.',
    database_socket: 'Refused: hostwire talks to the default OVSDB socket.',
  },
  example: '- openvswitch_bridge:\n    bridge: br-int\n    fail_mode: secure\n    set: Bridge br-int datapath_type=netdev',
  check: 'full',
  diff: 'full',
};
