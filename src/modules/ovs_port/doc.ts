import type { ModuleDoc } from '../types.js';

export const ovsPortDoc: ModuleDoc = {
  description:
    'A port on an Open vSwitch bridge with its interface type and options - exactly those given, as tunnel options ' +
    'define the tunnel - and the external_ids keys given. One ovs-vsctl call reads the Port, its Interface and the ' +
    'bridge that holds it; a port on another bridge is moved.',
  args: {
    bridge: 'The bridge the port belongs on.',
    port: 'The port (and interface) name.',
    type: 'internal, patch, vxlan, geneve, gre or system (unset: a system port).',
    options: 'Interface options, exactly: remote_ip for tunnels, peer for patch ports, key, dst_port...',
    external_ids: 'external_ids keys and values to set on the port.',
    state: 'present or absent.',
  },
  example: '- ovs_port:\n    bridge: br-int\n    port: vxlan0\n    type: vxlan\n    options: { remote_ip: 192.0.2.5, key: "42" }',
  check: 'full',
  diff: 'full',
};
