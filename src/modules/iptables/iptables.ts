// iptables: one rule in one chain, never duplicated. Presence is checked with `iptables -C` (read
// only); a rule tagged with `comment` that exists in another form is replaced in place (-R).
// Works with iptables-nft and iptables-legacy alike.
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import { splitWords } from '../kit/shell-words.js';
import type { Change, Module } from '../types.js';
import { oneLine } from '../kit/line-text.js';
import { need, readSections, requireTool, section } from '../../probe/sections.js';
import { parseRules, type ListedRule } from './parse.js';
import { iptablesDoc } from './doc.js';

const BUILTIN = new Set(['INPUT', 'OUTPUT', 'FORWARD', 'PREROUTING', 'POSTROUTING']);

const iptablesArgs = z
  .object({
    table: z.enum(['filter', 'nat', 'mangle', 'raw', 'security']).default('filter'),
    // xtables' rules for a chain name (at most 28 bytes, not an option); no blanks or control characters.
    chain: z.string().regex(/^[^\s\x00-\x1f\x7f!-][^\s\x00-\x1f\x7f]*$/u, "expected a chain name: no blanks or control characters, not starting with '-' or '!'").refine((c) => Buffer.byteLength(c) <= 28, 'expected a chain name of at most 28 bytes'),
    rule: z.union([z.string().min(1), z.array(z.union([z.string(), z.number()]).transform(String)).min(1)]),
    comment: z.string().min(1).max(256).superRefine(oneLine('an iptables comment')).optional(),
    position: z.number().int().min(1).optional(),
    state: z.enum(['present', 'absent']).default('present'),
    ip_version: z.union([z.literal(4), z.literal(6)]).default(4),
  })
  .strict();

export type IptablesArgs = z.infer<typeof iptablesArgs>;

export interface IptablesState {
  chainExists: boolean;
  present: boolean;
  rules: ListedRule[];
}

export function ruleSpec(a: IptablesArgs): string[] {
  const words = typeof a.rule === 'string' ? splitWords(a.rule) : a.rule;
  return a.comment ? [...words, '-m', 'comment', '--comment', a.comment] : words;
}

const tool = (a: IptablesArgs) => (a.ip_version === 6 ? 'ip6tables' : 'iptables');
const base = (a: IptablesArgs) => [tool(a), '-w', '-t', a.table];

export function readIptables(stdout: string, chain: string): IptablesState {
  const s = readSections(stdout);
  const list = need(s, 'list', stdout);
  const check = need(s, 'check', stdout);
  if (list.rc !== 0 && /Permission denied|can't initialize|Could not fetch rule set/.test(list.out)) throw new HostwireError('command-failed', `iptables cannot read the rules: ${list.out.trim()}`);
  if (check.rc === 2) throw new HostwireError('command-failed', `iptables rejected the rule: ${check.out.trim()}`);
  return { chainExists: list.rc === 0, present: list.rc === 0 && check.rc === 0, rules: list.rc === 0 ? parseRules(list.out, chain) : [] };
}

export function planIptables(s: IptablesState, a: IptablesArgs): Change[] {
  const spec = ruleSpec(a);
  const text = `-A ${a.chain} ${shellJoin(spec)}\n`;
  const tagged = a.comment ? s.rules.filter((r) => r.comment === a.comment) : [];
  if (a.state === 'absent') {
    // A tagged rule is deleted as -S lists it (that covers the rule itself, whatever its spelling).
    const run = tagged.length ? tagged.map((r) => shellJoin([...base(a), '-D', a.chain, ...r.spec])) : s.present ? [shellJoin([...base(a), '-D', a.chain, ...spec])] : [];
    return run.length ? [{ summary: `delete rule from ${a.table}/${a.chain}`, before: text, after: '', run }] : [];
  }
  if (s.present) return [];
  const run: string[] = [];
  if (!s.chainExists) {
    if (BUILTIN.has(a.chain)) throw new HostwireError('command-failed', `${tool(a)}: table ${a.table} has no chain ${a.chain}`);
    run.push(shellJoin([...base(a), '-N', a.chain]));
  }
  if (tagged.length > 0) {
    const old = tagged[0];
    return [{ summary: `replace rule '${a.comment}' in ${a.table}/${a.chain} (#${old.index})`, before: `-A ${a.chain} ${shellJoin(old.spec)}\n`, after: text, run: [shellJoin([...base(a), '-R', a.chain, String(old.index), ...spec]), ...tagged.slice(1).map((r) => shellJoin([...base(a), '-D', a.chain, ...r.spec]))] }];
  }
  run.push(shellJoin([...base(a), ...(a.position ? ['-I', a.chain, String(a.position)] : ['-A', a.chain]), ...spec]));
  return [{ summary: `${a.position ? `insert rule at ${a.position} in` : 'append rule to'} ${a.table}/${a.chain}${s.chainExists ? '' : ' (new chain)'}`, before: '', after: text, run }];
}

export const iptablesModule: Module<IptablesArgs, IptablesState> = {
  name: 'iptables',
  doc: iptablesDoc,
  args: iptablesArgs,
  probe: (a) => ({
    command: [requireTool(tool(a)), section('list', shellJoin([...base(a), '-S', a.chain])), section('check', shellJoin([...base(a), '-C', a.chain, ...ruleSpec(a)]))].join('; '),
    parse: (o) => readIptables(o.stdout, a.chain),
  }),
  plan: (s, a) => planIptables(s, a),
};
