import type { ModuleDoc } from '../types.js';

export const nmConnectionDoc: ModuleDoc = {
  description:
    'A NetworkManager connection profile with the given setting.property values (only those given are compared), ' +
    'present, absent, up or down, through nmcli; the profile is read with `nmcli -t` in one probe. persistent: false ' +
    'keeps the profile in memory only (nmcli\'s `save no` / `modify --temporary`).',
  args: {
    conn_name: 'The profile name (connection.id).',
    type: 'The connection type (ethernet, bridge, ovs-bridge, vxlan, ...); needed to create it.',
    ifname: 'The interface name the profile binds (* for any).',
    properties: 'setting.property: value pairs, like ipv4.method: manual.',
    state: 'present, absent, up (active) or down (inactive).',
    persistent: 'false: keep it in memory only, not written to disk.',
  },
  example: '- nm_connection:\n    conn_name: br-ex\n    type: ovs-bridge\n    ifname: br-ex\n    properties: { ovs-bridge.stp-enable: "no" }\n    state: up',
  check: 'full',
  diff: 'full',
};
