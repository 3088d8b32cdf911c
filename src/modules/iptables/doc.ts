import type { ModuleDoc } from '../types.js';

export const iptablesDoc: ModuleDoc = {
  description:
    'One rule in one chain, never duplicated, with iptables or ip6tables (nft or legacy backend alike). Presence is ' +
    'checked with `iptables -C` (read only) beside a listing of the chain; a missing chain is created. A rule tagged ' +
    'with a comment that exists in another form is replaced in place (-R), so changing a tagged rule does not leave the ' +
    'old one behind. Not persistent across reboots by itself.',
  args: {
    table: 'filter, nat, mangle, raw or security.',
    chain: 'The chain (created when missing).',
    rule: 'The rule\'s match and target as iptables words: a string (split like a shell) or a list, like "-p tcp --dport 22 -j ACCEPT".',
    comment: 'A comment (-m comment) that tags the rule so a changed rule replaces the old one.',
    position: 'Insert at this position (-I) instead of appending (-A).',
    state: 'present or absent.',
    ip_version: '4 (iptables) or 6 (ip6tables).',
  },
  example: '- iptables:\n    table: nat\n    chain: POSTROUTING\n    rule: "-s 10.244.0.0/16 ! -d 10.244.0.0/16 -j MASQUERADE"\n    comment: "hostwire: pod egress"',
  check: 'full',
  diff: 'full',
};
