// set_stats: ansible-core 2.14's set_stats action. It returns `ansible_stats: {data, per_host,
// aggregate}`; the runner keeps them as the run's custom stats (engine/runner/custom-stats.ts),
// shown after the recap when show_custom_stats is set, and in the run's JSON summary.
import { z } from 'zod';
import type { Module } from '../types.js';
import { ansibleBool } from '../kit/ansible-args.js';
import { setStatsDoc } from './doc.js';

/** utils/vars.py isidentifier: a Python identifier that is no keyword (nor True/False/None). */
const PY_KEYWORDS = new Set(['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield']);
const isIdentifier = (k: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && !PY_KEYWORDS.has(k);

const setStatsArgs = z
  .object({
    data: z.record(z.unknown(), { invalid_type_error: "The 'data' option needs to be a dictionary/hash" }).default({}),
    per_host: ansibleBool.default(false),
    aggregate: ansibleBool.default(true),
  })
  .strict();
export type SetStatsArgs = z.infer<typeof setStatsArgs>;

export const setStatsModule: Module<SetStatsArgs> = {
  name: 'set_stats',
  doc: setStatsDoc,
  args: setStatsArgs,
  environment: 'irrelevant',
  async run(args) {
    const bad = Object.keys(args.data).find((k) => !isIdentifier(k));
    if (bad !== undefined) {
      return { changed: false, failed: true, msg: `The variable name '${bad}' is not valid. Variables must start with a letter or underscore character, and contain only letters, numbers and underscores.` };
    }
    return { changed: false, ansible_stats: { data: args.data, per_host: args.per_host, aggregate: args.aggregate } };
  },
};
