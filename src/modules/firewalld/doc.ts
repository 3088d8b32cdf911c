import type { ModuleDoc } from '../types.js';

export const firewalldDoc: ModuleDoc = {
  description:
    'One item of one firewalld zone - a source, port, service, interface or masquerade - enabled or disabled, at ' +
    'runtime and/or permanently, each side read and changed on its own, never with a reload. Reads go over D-Bus ' +
    '(busctl, ~7 ms instead of firewall-cmd\'s Python start); writes use firewall-cmd, or firewall-offline-cmd for the ' +
    'permanent config while the daemon is stopped (offline: true). A change that may cut off the session is asked first on a TTY.',
  args: {
    zone: 'The zone.',
    source: 'A source: an address, a network (CIDR), a MAC, or ipset:NAME.',
    port: 'A port or range with its protocol, like 8080/tcp or 8000-8010/udp.',
    service: 'A firewalld service name, like https.',
    interface: 'An interface bound to the zone.',
    masquerade: 'true: the item is the zone\'s masquerading (state says on or off).',
    state: 'enabled or disabled (required).',
    permanent: 'Change the permanent configuration (else only the runtime).',
    immediate: 'With permanent: change the runtime too.',
    offline: 'Allow a permanent change with firewall-offline-cmd when firewalld is not running.',
  },
  example: '- firewalld:\n    zone: trusted\n    source: 10.128.0.0/14\n    state: enabled\n    permanent: true\n    immediate: true',
  check: 'full',
  diff: 'full',
};
