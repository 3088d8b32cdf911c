// setup and gather_facts as tasks (ansible-core 2.14's setup module and gather_facts action): the
// facts of a gather_subset read in ONE exec, as a play's own gathering reads them (src/facts/),
// narrowed by `filter`, and merged into the host's facts (ansible_facts and ansible_*).
import { z } from 'zod';
import { BadInputError, CommandError } from '../../errors.js';
import { assembleFacts, factsScript } from '../../facts/index.js';
import { factIdsFor } from '../../facts/subsets.js';
import { splitBatch } from '../../probe/batch.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ansibleBool, ansibleInt } from '../kit/ansible-args.js';
import { filterFacts } from './filter.js';
import { gatherFactsDoc, setupDoc } from './doc.js';

/** Ansible's `type: list, elements: str`: a list, or one comma-separated string. */
const strList = z.union([z.array(z.string()), z.string()]).transform((v) => (Array.isArray(v) ? v : v.split(',').map((s) => s.trim()).filter(Boolean)));

const setupArgs = z
  .object({
    gather_subset: strList.default(['all']),
    gather_timeout: ansibleInt.default(10),
    filter: strList.default([]),
  })
  .strict();
export type SetupArgs = z.infer<typeof setupArgs>;

/** The gather, filtered: what setup returns under ansible_facts; an unknown subset fails the module with Ansible's words. */
export async function gatherAsTask(args: SetupArgs, ctx: ModuleContext): Promise<Record<string, unknown> | { failed: string }> {
  let ids: Set<string>;
  try {
    ids = factIdsFor(args.gather_subset);
  } catch (e) {
    if (e instanceof BadInputError) return { failed: e.message };
    throw e;
  }
  const r = await ctx.transport.exec(factsScript(ids), { become: ctx.become, timeoutMs: args.gather_timeout * 1000 });
  if (r.code !== 0) throw new CommandError({ command: 'gather facts', exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: ctx.host });
  const facts: Record<string, unknown> = { ...assembleFacts(splitBatch(r.stdout), ids), gather_subset: args.gather_subset, module_setup: true };
  return filterFacts(facts, args.filter);
}

export const setupModule: Module<SetupArgs> = {
  name: 'setup',
  doc: setupDoc,
  args: setupArgs,
  factsLevel: 'host',
  environment: 'irrelevant',
  async run(args, ctx): Promise<ModuleResult> {
    const facts = await gatherAsTask(args, ctx);
    if (typeof facts.failed === 'string') return { changed: false, failed: true, msg: facts.failed };
    return { changed: false, ansible_facts: facts };
  },
};

const gatherFactsArgs = setupArgs.extend({ parallel: ansibleBool.optional() }).strict();

/** The gather_facts action: setup's facts plus the mark that facts were gathered. */
export const gatherFactsModule: Module<z.infer<typeof gatherFactsArgs>> = {
  name: 'gather_facts',
  doc: gatherFactsDoc,
  args: gatherFactsArgs,
  factsLevel: 'host',
  environment: 'irrelevant',
  async run(args, ctx): Promise<ModuleResult> {
    const facts = await gatherAsTask(args, ctx);
    // The gather_facts action reports its fact module's failure under failed_modules (plugins/action/gather_facts.py).
    if (typeof facts.failed === 'string') {
      return { changed: false, failed: true, ansible_facts: {}, failed_modules: { 'ansible.legacy.setup': { failed: true, msg: facts.failed } }, msg: 'The following modules failed to execute: ansible.legacy.setup\n' };
    }
    return { changed: false, ansible_facts: { ...facts, _ansible_facts_gathered: true } };
  },
};
