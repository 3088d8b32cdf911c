// iptables: one rule in one chain, never duplicated; or, as Ansible's iptables module, a chain's
// policy, a flush, a user chain created/deleted (chain_management). Presence is checked with
// `iptables -C` (read only) beside `iptables -S` of the chain. The rule is hostwire's raw `rule`
// (a comment tags it: a tagged rule that exists in another form is replaced in place, -R) or is
// built from Ansible's arguments exactly as Ansible builds it (ansible-rule.ts).
// Works with iptables-nft and iptables-legacy alike.
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import { splitWords } from '../kit/shell-words.js';
import type { Change, Module } from '../types.js';
import { need, readSections, requireTool, section } from '../../probe/sections.js';
import { parseRules, splitSaveLines, type ListedRule } from './parse.js';
import { iptablesArgs, givenRuleArgs, type IptablesArgs } from './args.js';
import { constructRule } from './ansible-rule.js';
import { iptablesDoc } from './doc.js';

export type { IptablesArgs } from './args.js';

const BUILTIN = new Set(['INPUT', 'OUTPUT', 'FORWARD', 'PREROUTING', 'POSTROUTING']);

export interface IptablesState {
  chainExists: boolean;
  /** The rule passes `iptables -C` (false when no rule was checked). */
  present: boolean;
  rules: ListedRule[];
  /** The built-in chain's policy (`-P CHAIN POLICY` in the listing). */
  policy?: string;
  /** The listing's first error line when it failed (`No chain/target/match by that name.`). */
  listError?: string;
}

/** What the task manages: a rule, a chain's policy, a flush, or the chain itself. */
type Target = 'rule' | 'policy' | 'flush' | 'chain';

export function targetOf(a: IptablesArgs): Target {
  if (a.flush) return 'flush';
  if (a.policy !== undefined) return 'policy';
  return a.rule !== undefined || givenRuleArgs(a).length > 0 ? 'rule' : 'chain';
}

/** The rule's words: the raw rule (+ its comment tag), or Ansible's construct_rule. */
export function ruleSpec(a: IptablesArgs): string[] {
  if (a.rule === undefined) return constructRule(a);
  const words = typeof a.rule === 'string' ? splitWords(a.rule) : a.rule;
  return a.comment ? [...words, '-m', 'comment', '--comment', a.comment] : words;
}

const tool = (a: IptablesArgs) => (a.ip_version === 6 ? 'ip6tables' : 'iptables');
const base = (a: IptablesArgs) => [tool(a), ...(a.wait !== undefined ? ['-w', a.wait] : ['-w']), '-t', a.table];
const chainWords = (a: IptablesArgs) => (a.chain !== undefined ? [a.chain] : []);

export function probeCommand(a: IptablesArgs): string {
  const parts = [requireTool(tool(a)), section('list', shellJoin([...base(a), '-S', ...chainWords(a)]))];
  if (targetOf(a) === 'rule') parts.push(section('check', shellJoin([...base(a), '-C', a.chain!, ...ruleSpec(a)])));
  return parts.join('; ');
}

export function readIptables(stdout: string, chain: string | undefined): IptablesState {
  const s = readSections(stdout);
  const list = need(s, 'list', stdout);
  const check = s.get('check');
  if (list.rc !== 0 && /Permission denied|can't initialize|Could not fetch rule set/.test(list.out)) throw new HostwireError('command-failed', `iptables cannot read the rules: ${list.out.trim()}`);
  if (check?.rc === 2) throw new HostwireError('command-failed', `iptables rejected the rule: ${check.out.trim()}`);
  if (list.rc !== 0) return { chainExists: false, present: false, rules: [], listError: list.out.trim().split('\n')[0] };
  const policy = chain === undefined ? undefined : splitSaveLines(list.out, `iptables -S ${chain}`).find((r) => r.words[0] === '-P' && r.words[1] === chain)?.words[2];
  const rules = chain === undefined ? splitSaveLines(list.out, 'iptables -S').filter((r) => r.words[0] === '-A').map((r, i) => ({ index: i + 1, spec: r.words.slice(2) })) : parseRules(list.out, chain);
  return { chainExists: true, present: check?.rc === 0, rules, policy };
}

function noChain(a: IptablesArgs, s: IptablesState): HostwireError {
  return new HostwireError('command-failed', `${tool(a)}: table ${a.table} has no chain ${a.chain}${s.listError ? ` (${s.listError})` : ''}`);
}

/** flush, policy, chain: the whole-chain targets (Ansible's main() branches before the rule's). */
function planChain(s: IptablesState, a: IptablesArgs, target: Exclude<Target, 'rule'>): Change[] {
  const where = `${a.table}/${a.chain ?? '*'}`;
  if (target === 'flush') {
    if (!s.chainExists) throw noChain(a, s);
    // Ansible flushes (and says changed) every time; a chain already empty is left alone here.
    if (s.rules.length === 0) return [];
    return [{ summary: `flush ${where} (${s.rules.length} rule(s))`, before: s.rules.map((r) => `-A ${shellJoin(r.spec)}\n`).join(''), after: '', run: [shellJoin([...base(a), '-F', ...chainWords(a)])] }];
  }
  if (target === 'policy') {
    if (!s.chainExists) throw noChain(a, s);
    if (s.policy === undefined) throw new HostwireError('bad-input', `Can't detect current policy of ${where}: only a built-in chain has one`);
    if (s.policy === a.policy) return [];
    return [{ summary: `set policy of ${where} to ${a.policy}`, before: `policy: ${s.policy}\n`, after: `policy: ${a.policy}\n`, run: [shellJoin([...base(a), '-P', a.chain!, a.policy!])] }];
  }
  // No rule: chain_management creates (present) or deletes (absent) the user chain itself.
  if (!a.chain_management || s.chainExists === (a.state === 'present')) return [];
  if (a.state === 'present') return [{ summary: `create chain ${where}`, before: '', after: `-N ${a.chain}\n`, run: [shellJoin([...base(a), '-N', a.chain!])] }];
  return [{ summary: `delete chain ${where}`, before: `-N ${a.chain}\n`, after: '', run: [shellJoin([...base(a), '-X', a.chain!])] }];
}

/** Where a new rule goes: hostwire's position, or Ansible's action insert (rule_num, else the top). */
const insertWords = (a: IptablesArgs): string[] =>
  a.position !== undefined ? ['-I', a.chain!, String(a.position)] : a.action === 'insert' ? ['-I', a.chain!, ...(a.rule_num !== undefined ? [a.rule_num] : [])] : ['-A', a.chain!];

export function planIptables(s: IptablesState, a: IptablesArgs): Change[] {
  const target = targetOf(a);
  if (target !== 'rule') return planChain(s, a, target);
  const chain = a.chain!;
  const spec = ruleSpec(a);
  const text = `-A ${chain} ${shellJoin(spec)}\n`;
  // Only hostwire's raw rule is tagged by its comment; Ansible's comment is part of the rule.
  const tagged = a.rule !== undefined && a.comment ? s.rules.filter((r) => r.comment === a.comment) : [];
  if (a.state === 'absent') {
    // A tagged rule is deleted as -S lists it (that covers the rule itself, whatever its spelling).
    const run = tagged.length ? tagged.map((r) => shellJoin([...base(a), '-D', chain, ...r.spec])) : s.present ? [shellJoin([...base(a), '-D', chain, ...spec])] : [];
    return run.length ? [{ summary: `delete rule from ${a.table}/${chain}`, before: text, after: '', run }] : [];
  }
  if (s.present) return [];
  const run: string[] = [];
  if (!s.chainExists) {
    // hostwire's raw rule creates a missing user chain; Ansible's arguments only with chain_management.
    if (BUILTIN.has(chain) || (a.rule === undefined && !a.chain_management)) throw new HostwireError('command-failed', `${tool(a)}: table ${a.table} has no chain ${chain}${a.rule === undefined && !BUILTIN.has(chain) ? ' (set chain_management: yes to create it)' : ''}`);
    run.push(shellJoin([...base(a), '-N', chain]));
  }
  if (tagged.length > 0) {
    const old = tagged[0];
    return [{ summary: `replace rule '${a.comment}' in ${a.table}/${chain} (#${old.index})`, before: `-A ${chain} ${shellJoin(old.spec)}\n`, after: text, run: [shellJoin([...base(a), '-R', chain, String(old.index), ...spec]), ...tagged.slice(1).map((r) => shellJoin([...base(a), '-D', chain, ...r.spec]))] }];
  }
  const where = insertWords(a);
  run.push(shellJoin([...base(a), ...where, ...spec]));
  return [{ summary: `${where[0] === '-I' ? `insert rule at ${where[2] ?? 1} in` : 'append rule to'} ${a.table}/${chain}${s.chainExists ? '' : ' (new chain)'}`, before: '', after: text, run }];
}

export const iptablesModule: Module<IptablesArgs, IptablesState> = {
  name: 'iptables',
  doc: iptablesDoc,
  args: iptablesArgs,
  probe: (a) => ({ command: probeCommand(a), parse: (o) => readIptables(o.stdout, a.chain) }),
  plan: (s, a) => planIptables(s, a),
};
