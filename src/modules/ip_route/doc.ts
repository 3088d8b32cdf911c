import type { ModuleDoc } from '../types.js';

export const ipRouteDoc: ModuleDoc = {
  description:
    'One route, keyed by destination, table and metric, managed with iproute2 and read with `ip -j route show table all`. ' +
    'A route with that key but another gateway or device is replaced (`ip route replace`), never duplicated. ' +
    'Not persistent across reboots.',
  args: {
    dst: 'The destination: a CIDR, an address, or default.',
    via: 'The gateway address.',
    dev: 'The output device.',
    metric: 'The metric (part of the key; default 0).',
    table: 'The routing table: a number or a name from rt_tables (default main).',
    family: '4 or 6; by default taken from dst or via.',
    state: 'present or absent.',
  },
  example: '- ip_route:\n    dst: 10.96.0.0/12\n    via: 192.0.2.1\n    dev: br-ex',
  check: 'full',
  diff: 'full',
};
