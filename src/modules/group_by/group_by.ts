// group_by: ansible-core 2.14's group_by action. Per host, it returns `add_group` (the key, spaces
// made dashes) and `parent_groups`; the runner puts the host in that group of the run's in-memory
// inventory (engine/runner/run-effects.ts), `changed` when the membership changed.
import { z } from 'zod';
import type { Module } from '../types.js';
import { groupByDoc } from './doc.js';

const groupByArgs = z
  .object({
    key: z.string({ required_error: "the 'key' param is required when using group_by", invalid_type_error: 'expected a group name' }),
    parents: z.union([z.array(z.string()), z.string()]).default(['all']),
  })
  .strict();
export type GroupByArgs = z.infer<typeof groupByArgs>;

const dashed = (s: string) => s.replaceAll(' ', '-');

export const groupByModule: Module<GroupByArgs> = {
  name: 'group_by',
  doc: groupByDoc,
  args: groupByArgs,
  environment: 'irrelevant',
  async run(args) {
    const parents = typeof args.parents === 'string' ? [args.parents] : args.parents;
    return { changed: false, add_group: dashed(args.key), parent_groups: parents.map(dashed) };
  },
};
