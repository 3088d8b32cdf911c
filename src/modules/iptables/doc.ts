import type { ModuleDoc } from '../types.js';

const ruleArg = (what: string) => `Ansible's rule argument: ${what}.`;

export const iptablesDoc: ModuleDoc = {
  description:
    'One rule in one chain, never duplicated, with iptables or ip6tables (nft or legacy backend alike); or, as Ansible\'s ' +
    'iptables module, a built-in chain\'s policy, a flush, a user chain itself (chain_management). The rule is either ' +
    'hostwire\'s raw `rule` (iptables words; a comment tags it, and a tagged rule that exists in another form is replaced in ' +
    'place with -R; a missing chain is created) or Ansible\'s arguments (protocol, source, jump, ctstate...), from which the ' +
    'rule is built word for word in the order Ansible\'s construct_rule builds it, so rules Ansible added are found. ' +
    'Presence is checked with `iptables -C` (read only) beside `iptables -S` of the chain. Unlike Ansible, flush reports a ' +
    'change only when the chain (or table) holds rules, and state: absent without a rule changes nothing unless ' +
    'chain_management: yes. Not persistent across reboots by itself.',
  args: {
    table: 'filter, nat, mangle, raw or security.',
    chain: 'The chain (required unless flush).',
    rule: 'hostwire\'s raw rule: iptables words, a string (split like a shell) or a list, like "-p tcp --dport 22 -j ACCEPT" (not with Ansible\'s rule arguments).',
    comment: 'A comment (-m comment); with `rule` it tags the rule so a changed rule replaces the old one.',
    position: 'Insert the rule at this position (-I) instead of appending (-A).',
    state: 'present or absent.',
    ip_version: '4 or ipv4 (iptables), 6 or ipv6 (ip6tables).',
    action: 'append (-A) or insert (-I) a new rule (Ansible).',
    rule_num: 'With action: insert, the position to insert at (Ansible).',
    wait: 'Seconds to wait for the xtables lock (-w N); by default -w waits as long as it takes.',
    flush: 'yes: flush the chain, or every chain of the table when no chain is given (Ansible).',
    policy: 'The built-in chain\'s policy: ACCEPT, DROP, QUEUE or RETURN (Ansible).',
    chain_management: 'yes: create a missing user chain for the rule (or with no rule: create it, or delete it with state: absent) (Ansible).',
    protocol: ruleArg('-p (tcp, udp, icmp, all...; !x negates, as for every rule argument)'),
    source: ruleArg('-s address[/mask]'),
    to_source: ruleArg('--to-source (SNAT)'),
    destination: ruleArg('-d address[/mask]'),
    to_destination: ruleArg('--to-destination (DNAT)'),
    match: ruleArg('-m extensions, a list'),
    tcp_flags: ruleArg('--tcp-flags: {flags: [...], flags_set: [...]}'),
    jump: ruleArg('-j target (ACCEPT, DROP, a chain...)'),
    gateway: ruleArg('--gateway, with jump: TEE (required then)'),
    log_prefix: ruleArg('--log-prefix (jump LOG, the default then)'),
    log_level: ruleArg('--log-level 0-7 or emerg..debug (jump LOG)'),
    goto: ruleArg('-g chain'),
    in_interface: ruleArg('-i interface'),
    out_interface: ruleArg('-o interface'),
    fragment: ruleArg('-f'),
    set_counters: ruleArg('-c packets bytes'),
    source_port: ruleArg('--source-port'),
    destination_port: ruleArg('--destination-port'),
    destination_ports: ruleArg('-m multiport --dports, a list'),
    to_ports: ruleArg('--to-ports (REDIRECT, MASQUERADE)'),
    set_dscp_mark: ruleArg('--set-dscp'),
    set_dscp_mark_class: ruleArg('--set-dscp-class'),
    ctstate: ruleArg('-m conntrack --ctstate (--state with match: state), a list'),
    src_range: ruleArg('-m iprange --src-range'),
    dst_range: ruleArg('-m iprange --dst-range'),
    match_set: ruleArg('-m set --match-set NAME'),
    match_set_flags: ruleArg('the flags after the set name: src, dst, src,dst or dst,src (required with match_set)'),
    limit: ruleArg('-m limit --limit'),
    limit_burst: ruleArg('-m limit --limit-burst'),
    uid_owner: ruleArg('-m owner --uid-owner'),
    gid_owner: ruleArg('-m owner --gid-owner'),
    reject_with: ruleArg('--reject-with (jump REJECT, the default then)'),
    icmp_type: ruleArg('--icmp-type (--icmpv6-type for ip_version 6)'),
    syn: ruleArg('--syn: ignore, match or negate'),
  },
  example: '- iptables:\n    chain: INPUT\n    protocol: tcp\n    destination_port: 22\n    ctstate: [NEW]\n    jump: ACCEPT\n    comment: ssh in',
  check: 'full',
  diff: 'full',
};
