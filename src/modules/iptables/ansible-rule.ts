// The rule words built from Ansible's iptables arguments, in the order ansible-core 2.14's
// construct_rule puts them: `iptables -C` compares a rule as it was given, so the same arguments must
// give the same words as under Ansible for a rule Ansible added to be found (and not added twice).
// `wait` is not here: hostwire passes it beside -t, where every command of the task gets it.
import type { IptablesArgs } from './args.js';

type Words = string[];

/** `!value` negates: `! -s 10.0.0.0/8`. */
function param(rule: Words, value: string | undefined, flag: string): void {
  if (value === undefined) return;
  if (value.startsWith('!')) rule.push('!', flag, value.slice(1));
  else rule.push(flag, value);
}

/** append_match_flag: the value 'match' adds the flag, 'negate' (when negatable) adds `! flag`. */
function matchFlag(rule: Words, value: string | undefined, flag: string, negatable: boolean): void {
  if (value === 'match') rule.push(flag);
  else if (negatable && value === 'negate') rule.push('!', flag);
}

const csv = (rule: Words, values: string[], flag: string) => values.length > 0 && rule.push(flag, values.join(','));
const useMatch = (rule: Words, when: unknown, match: string) => when && (!Array.isArray(when) || when.length > 0) && rule.push('-m', match);

function targets(rule: Words, a: IptablesArgs): void {
  param(rule, a.protocol, '-p');
  param(rule, a.source, '-s');
  param(rule, a.destination, '-d');
  for (const m of a.match) param(rule, m, '-m');
  if (a.tcp_flags && a.tcp_flags.flags.length + a.tcp_flags.flags_set.length > 0) rule.push('--tcp-flags', a.tcp_flags.flags.join(','), a.tcp_flags.flags_set.join(','));
  param(rule, jumpOf(a), '-j');
  if (jumpOf(a)?.toLowerCase() === 'tee') param(rule, a.gateway, '--gateway');
  param(rule, a.log_prefix, '--log-prefix');
  param(rule, a.log_level, '--log-level');
  param(rule, a.to_destination, '--to-destination');
  useMatch(rule, a.destination_ports, 'multiport');
  csv(rule, a.destination_ports, '--dports');
  param(rule, a.to_source, '--to-source');
  param(rule, a.goto, '-g');
  param(rule, a.in_interface, '-i');
  param(rule, a.out_interface, '-o');
  param(rule, a.fragment, '-f');
  param(rule, a.set_counters, '-c');
  param(rule, a.source_port, '--source-port');
  param(rule, a.destination_port, '--destination-port');
  param(rule, a.to_ports, '--to-ports');
  param(rule, a.set_dscp_mark, '--set-dscp');
  param(rule, a.set_dscp_mark_class, '--set-dscp-class');
  matchFlag(rule, a.syn, '--syn', true);
}

function matches(rule: Words, a: IptablesArgs): void {
  if (a.match.includes('conntrack')) csv(rule, a.ctstate, '--ctstate');
  else if (a.match.includes('state')) csv(rule, a.ctstate, '--state');
  else if (a.ctstate.length > 0) (useMatch(rule, a.ctstate, 'conntrack'), csv(rule, a.ctstate, '--ctstate'));
  if (!a.match.includes('iprange')) useMatch(rule, a.src_range ?? a.dst_range, 'iprange');
  param(rule, a.src_range, '--src-range');
  param(rule, a.dst_range, '--dst-range');
  if (!a.match.includes('set')) useMatch(rule, a.match_set, 'set');
  if (a.match.includes('set') || a.match_set !== undefined) {
    param(rule, a.match_set, '--match-set');
    // append_match_flag(rule, 'match', match_set_flags): the flags follow the set's name as a word.
    if (a.match_set_flags !== undefined) rule.push(a.match_set_flags);
  }
  useMatch(rule, a.limit ?? a.limit_burst, 'limit');
  param(rule, a.limit, '--limit');
  param(rule, a.limit_burst, '--limit-burst');
  for (const [value, flag] of [[a.uid_owner, '--uid-owner'], [a.gid_owner, '--gid-owner']] as const) {
    useMatch(rule, value, 'owner');
    matchFlag(rule, value, flag, true);
    param(rule, value, flag);
  }
}

/** main() makes LOG the jump when log_prefix/log_level come without one (before the rule is built). */
const jumpOf = (a: IptablesArgs) => a.jump ?? (a.log_prefix !== undefined || a.log_level !== undefined ? 'LOG' : undefined);

/** construct_rule: the words after `-C/-A/-I/-D CHAIN`. */
export function constructRule(a: IptablesArgs): string[] {
  const rule: Words = [];
  targets(rule, a);
  matches(rule, a);
  if (jumpOf(a) === undefined && a.reject_with !== undefined) rule.push('-j', 'REJECT');
  param(rule, a.reject_with, '--reject-with');
  param(rule, a.icmp_type, a.ip_version === 6 ? '--icmpv6-type' : '--icmp-type');
  if (a.comment !== undefined) rule.push('-m', 'comment', '--comment', a.comment);
  return rule;
}
