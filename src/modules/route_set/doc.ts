import type { ModuleDoc } from '../types.js';

export const routeSetDoc: ModuleDoc = {
  description:
    'The IPv4 routes inside one network (a cluster\'s pod network, flannel host-gw) converged to an exact set: missing ' +
    'routes are added, a route with another gateway or device is replaced, and with purge the routes inside the network ' +
    'that are neither listed nor kept are deleted. Routes outside the network and the network\'s own route are never ' +
    'touched. One read: `ip -j -4 route show table <table>`. See route_set/README.md.',
  args: {
    network: 'The network (IPv4 CIDR) whose inner routes this task owns.',
    routes: 'The wanted routes: a list of {dst, via?, dev?}, each dst a subnet inside network, each with via or dev.',
    keep: 'Subnets inside the network never touched (the node\'s own subnet on cni0).',
    purge: 'Delete managed routes that are neither listed nor kept.',
    metric: 'The metric of the listed routes.',
    table: 'The routing table: a number or a name.',
  },
  example: '- route_set:\n    network: 10.244.0.0/16\n    keep: [10.244.1.0/24]\n    routes:\n      - { dst: 10.244.2.0/24, via: 192.0.2.12 }\n      - { dst: 10.244.3.0/24, via: 192.0.2.13 }',
  check: 'full',
  diff: 'full',
};
