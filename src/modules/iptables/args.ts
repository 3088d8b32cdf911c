// iptables arguments: hostwire's raw `rule` (iptables words, a comment that tags it) or Ansible's
// iptables module arguments (ansible-core 2.14's argument_spec: protocol, source, jump, ctstate,
// flush, policy...), from which the rule is built as its construct_rule builds it (ansible-rule.ts).
// The two are not mixed in one task; Ansible's cross-argument checks are made before the run.
import { z } from 'zod';
import { ansibleBool } from '../kit/ansible-args.js';
import { oneLine } from '../kit/line-text.js';
import { lazyArgs } from '../kit/lazy-args.js';

/** Ansible's `type: str`: text, or a YAML number as text (destination_port: 22); one line, not empty. */
const str = (what: string) =>
  z.union([z.string(), z.number().transform(String)]).pipe(z.string().min(1, `expected ${what}, not an empty string`).superRefine(oneLine(what)));

/** Ansible's `type: list, elements: str`: a list, or a comma-separated string (ctstate: ESTABLISHED,RELATED). */
const strList = (what: string) =>
  z
    .union([z.string().transform((s) => (s === '' ? [] : s.split(',').map((x) => x.trim()))), z.array(z.union([z.string(), z.number().transform(String)]))])
    .pipe(z.array(z.string().min(1, `expected ${what}, not an empty string`).superRefine(oneLine(what))))
    .default([]);

const chainName = () => z
  .string()
  // xtables' rules for a chain name (at most 28 bytes, not an option); no blanks or control characters.
  .regex(/^[^\s\x00-\x1f\x7f!-][^\s\x00-\x1f\x7f]*$/u, "expected a chain name: no blanks or control characters, not starting with '-' or '!'")
  .refine((c) => Buffer.byteLength(c) <= 28, 'expected a chain name of at most 28 bytes');

/** Ansible writes ipv4/ipv6, hostwire 4/6: both are taken, as a number. */
const ipVersion = () => z
  .union([z.literal(4), z.literal(6), z.enum(['4', '6', 'ipv4', 'ipv6'])])
  .transform((v) => (v === 6 || v === '6' || v === 'ipv6' ? 6 : 4) as 4 | 6)
  .default(4);

const LOG_LEVELS = ['0', '1', '2', '3', '4', '5', '6', '7', 'emerg', 'alert', 'crit', 'error', 'warning', 'notice', 'info', 'debug'] as const;

/** The arguments construct_rule reads: any of them makes the task an Ansible-style rule. */
export const ANSIBLE_RULE_ARGS = [
  'protocol', 'source', 'to_source', 'destination', 'to_destination', 'match', 'tcp_flags', 'jump', 'gateway',
  'log_prefix', 'log_level', 'goto', 'in_interface', 'out_interface', 'fragment', 'set_counters', 'source_port',
  'destination_port', 'destination_ports', 'to_ports', 'set_dscp_mark', 'set_dscp_mark_class', 'ctstate', 'src_range',
  'dst_range', 'match_set', 'match_set_flags', 'limit', 'limit_burst', 'uid_owner', 'gid_owner', 'reject_with', 'icmp_type', 'syn',
] as const;

const ansibleRuleArgs = () => ({
  protocol: str('a protocol').optional(),
  source: str('an address').optional(),
  to_source: str('an address').optional(),
  destination: str('an address').optional(),
  to_destination: str('an address').optional(),
  match: strList('a match name'),
  tcp_flags: z.object({ flags: strList('a TCP flag'), flags_set: strList('a TCP flag') }).strict().optional(),
  jump: str('a target').optional(),
  gateway: str('an address').optional(),
  log_prefix: str('a log prefix').optional(),
  log_level: z.union([z.enum(LOG_LEVELS), z.number().int().min(0).max(7).transform(String)]).optional(),
  goto: str('a chain').optional(),
  in_interface: str('an interface').optional(),
  out_interface: str('an interface').optional(),
  fragment: str('a fragment flag').optional(),
  set_counters: str('packet and byte counters').optional(),
  source_port: str('a port').optional(),
  destination_port: str('a port').optional(),
  destination_ports: strList('a port'),
  to_ports: str('a port').optional(),
  set_dscp_mark: str('a DSCP value').optional(),
  set_dscp_mark_class: str('a DSCP class').optional(),
  ctstate: strList('a connection state'),
  src_range: str('an address range').optional(),
  dst_range: str('an address range').optional(),
  match_set: str('an ipset name').optional(),
  match_set_flags: z.enum(['src', 'dst', 'src,dst', 'dst,src']).optional(),
  limit: str('a rate').optional(),
  limit_burst: str('a burst').optional(),
  uid_owner: str('a user').optional(),
  gid_owner: str('a group').optional(),
  reject_with: str('a reject type').optional(),
  icmp_type: str('an ICMP type').optional(),
  syn: z.enum(['ignore', 'match', 'negate']).default('ignore'),
});

const iptablesObject = () => z
  .object({
    table: z.enum(['filter', 'nat', 'mangle', 'raw', 'security']).default('filter'),
    chain: chainName().optional(),
    /** hostwire's raw rule: iptables words (a string split like a shell, or a list). */
    rule: z.union([z.string().min(1), z.array(z.union([z.string(), z.number()]).transform(String)).min(1)]).optional(),
    comment: z.string().min(1).max(256).superRefine(oneLine('an iptables comment')).optional(),
    position: z.number().int().min(1).optional(),
    state: z.enum(['present', 'absent']).default('present'),
    ip_version: ipVersion(),
    action: z.enum(['append', 'insert']).default('append'),
    rule_num: z.union([z.number().int().min(1).transform(String), z.string().regex(/^[1-9]\d*$/, 'expected a rule number (1, 2, ...)')]).optional(),
    wait: z.union([z.number().int().min(0).transform(String), z.string().regex(/^\d+$/, 'expected seconds to wait for the xtables lock')]).optional(),
    flush: ansibleBool.default(false),
    policy: z.enum(['ACCEPT', 'DROP', 'QUEUE', 'RETURN']).optional(),
    chain_management: ansibleBool.default(false),
    ...ansibleRuleArgs(),
  })
  .strict();

type Raw = z.infer<ReturnType<typeof iptablesObject>>;

/** The Ansible rule arguments given (a default of construct_rule's does not count). */
export const givenRuleArgs = (a: Raw) =>
  ANSIBLE_RULE_ARGS.filter((k) => {
    const v = a[k];
    return k === 'syn' ? v !== 'ignore' : Array.isArray(v) ? v.length > 0 : v !== undefined;
  });

/** Ansible's mutually_exclusive, required_if and main()'s checks, plus hostwire's own (raw rule vs Ansible's). */
function crossCheck(a: Raw, ctx: z.RefinementCtx): void {
  // A check about an argument that is absent names none (the message says which), as Ansible's do.
  const fail = (message: string, path?: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message, path: path ? [path] : [] });
  const given = givenRuleArgs(a);
  const ansible = given.length > 0;
  if (a.rule !== undefined && ansible) fail(`'rule' (iptables words) cannot be combined with Ansible's rule arguments (${given.join(', ')}): expected one or the other`, 'rule');
  if (a.flush && a.policy !== undefined) fail('parameters are mutually exclusive: flush|policy', 'flush');
  if (a.set_dscp_mark !== undefined && a.set_dscp_mark_class !== undefined) fail('parameters are mutually exclusive: set_dscp_mark|set_dscp_mark_class', 'set_dscp_mark');
  if (a.jump?.toLowerCase() === 'tee' && a.gateway === undefined) fail(`jump is ${a.jump} but all of the following are missing: gateway`);
  if (!a.flush && a.chain === undefined) fail('Either chain or flush parameter must be specified.');
  if ((a.log_prefix !== undefined || a.log_level !== undefined) && a.jump !== undefined && a.jump !== 'LOG') fail('Logging options can only be used with the LOG jump target.', 'jump');
  if (a.match_set !== undefined && a.match_set_flags === undefined) fail('match_set requires match_set_flags (src, dst, src,dst or dst,src)');
  if (a.position !== undefined && (a.action === 'insert' || a.rule_num !== undefined)) fail("'position' (hostwire's) and action/rule_num (Ansible's) both say where to insert: expected one of them", 'position');
  if ((a.flush || a.policy !== undefined) && (a.rule !== undefined || ansible)) fail(`${a.flush ? 'flush' : 'policy'} acts on a whole ${a.flush ? 'table or chain' : 'chain'}: expected no rule arguments beside it`, a.flush ? 'flush' : 'policy');
  const ruleless = a.rule === undefined && !ansible && !a.flush && a.policy === undefined;
  if (ruleless && a.comment !== undefined) fail("'comment' needs a rule: expected 'rule' or Ansible's rule arguments", 'comment');
  else if (ruleless && a.state === 'present' && !a.chain_management) {
    fail("expected a rule ('rule', or Ansible's arguments such as protocol, destination_port, jump), flush, policy, or chain_management: yes (to create the chain)");
  }
}

// Built when a task first uses iptables: the largest schema of all (kit/lazy-args.ts).
export const iptablesArgs = lazyArgs(() => iptablesObject().superRefine(crossCheck));

export type IptablesArgs = z.infer<typeof iptablesArgs>;
