import type { ModuleDoc } from '../types.js';

export const ipAddrDoc: ModuleDoc = {
  description:
    'The IP addresses (IPv4 and IPv6, in CIDR form) of one device, managed with iproute2 and read with `ip -j addr show`. ' +
    'exclusive also removes every other global address of the device; link-local and host-scope addresses are the ' +
    'kernel\'s and stay. Not persistent across reboots.',
  args: {
    dev: 'The device.',
    addresses: 'An address or a list of them, like 192.0.2.10/24 or 2001:db8::1/64.',
    exclusive: 'Remove the device\'s other global addresses.',
    state: 'present or absent.',
  },
  example: '- ip_addr:\n    dev: br-ex\n    addresses: [192.0.2.10/24]\n    exclusive: true',
  check: 'full',
  diff: 'full',
};
