import type { ModuleDoc } from '../types.js';

export const openvswitchPortDoc: ModuleDoc = {
  description:
    "openvswitch.openvswitch.openvswitch_port (collection 2.1.1) as an alias of hostwire's ovs_port, with the module's argument " +
    'names and judgement: a port already on the bridge has its tag and the external ids given compared (set is ignored there, ' +
    'as the module does); a new port is added with its tag and set entries; absent deletes it from that bridge only. commands ' +
    'in the result are the ovs-vsctl commands run. Where the module would run a failing command - the port on another bridge, ' +
    "a tagged port with no tag given (its 'tag=None') - the failure is said before anything runs. An external id set to null " +
    'is removed only when present (the module removes it on every run). set maps only for the port\'s own Interface or Port ' +
    'row; database_socket and a timeout other than 5 are refused by name.',
  args: {
    bridge: 'The bridge the port belongs on (must exist).',
    port: 'The port name.',
    tag: 'The VLAN tag (0-4095) of the port.',
    state: 'present or absent.',
    timeout: 'Must be 5 (ovs-vsctl --timeout=5, as ovs_port runs it).',
    external_ids: "Keys and values set in the port's external_ids (others left alone; null removes a key).",
    set: "Entries 'Interface PORT COLUMN=VALUE...' or 'Port PORT COLUMN=VALUE...' applied when the port is created.",
    database_socket: 'Refused: hostwire talks to the default OVSDB socket.',
  },
  example: '- openvswitch_port:\n    bridge: br-int\n    port: vxlan0\n    set: Interface vxlan0 type=vxlan options:remote_ip=192.0.2.9',
  check: 'full',
  diff: 'full',
};
