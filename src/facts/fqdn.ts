// ansible_fqdn: Python's socket.getfqdn() takes the first of the host name's resolved names that holds
// a dot, else the name itself. hostwire resolves the node name with `getent hosts` (by name; Python
// resolves by address), which gives the same answer from /etc/hosts and DNS on the hosts it meets.
import type { FactProbe } from './types.js';

export const fqdnFact: FactProbe<string> = {
  id: 'fqdn',
  command: 'n=$(uname -n); echo "$n"; getent hosts -- "$n"',
  parse(o) {
    const [name = '', first = ''] = o.stdout.split('\n');
    // gethostbyaddr's canonical name and aliases: the first with a dot, else the canonical name.
    const names = first.trim().split(/\s+/).slice(1);
    return names.find((n) => n.includes('.')) ?? names[0] ?? name.trim();
  },
};
