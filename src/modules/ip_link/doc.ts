import type { ModuleDoc } from '../types.js';

export const ipLinkDoc: ModuleDoc = {
  description:
    'A kernel network link - bridge, veth pair, vxlan, ipip, gre or macvlan - with its MTU, MAC address and up/down ' +
    'state, managed with iproute2. Read with `ip -j -d link show` (one read shared by every ip_link task of the batch). ' +
    'Parameters the kernel cannot change in place (a vxlan id, a veth peer) make the link be deleted and created again. ' +
    'Not persistent across reboots: use nm_connection for that.',
  args: {
    name: 'The interface name (1-15 bytes, as the kernel checks it).',
    kind: 'bridge, veth, vxlan, ipip, gre or macvlan; needed to create the link.',
    parameters: 'Kind-specific settings: id, remote, local, group, dstport, dev (vxlan); peer (veth); mode, link (macvlan).',
    mtu: 'The MTU.',
    address: 'The MAC address.',
    state: 'up, down, present (created, state left alone) or absent.',
  },
  example: '- ip_link:\n    name: vxlan0\n    kind: vxlan\n    parameters: { id: 42, dev: eth0, dstport: 4789 }\n    mtu: 1450\n    state: up',
  check: 'full',
  diff: 'full',
};
