// The default arguments `module_defaults` gives one task (ansible-core 2.14's
// get_action_args_with_defaults): the levels around it, outermost first, each replacing an earlier
// level's entry for the same action; the entry rendered with the task's vars. The caller lets the
// task's own arguments win over them.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { canonicalAction, type ModuleDefaults } from '../playbook/module-defaults.js';
import type { Vars } from '../playbook/types.js';
import { renderValue } from '../vars/index.js';
import { assignOwn } from '../../own-keys.js';

export function defaultArgs(levels: readonly ModuleDefaults[], written: string, vars: Vars, loc: SourceLoc): Vars {
  if (levels.length === 0) return {};
  const merged: ModuleDefaults = {};
  for (const level of levels) assignOwn(merged, level);
  const entry = merged[canonicalAction(written)];
  if (entry === undefined) return {};
  const rendered = renderValue(entry, vars, loc);
  if (!rendered || typeof rendered !== 'object' || Array.isArray(rendered)) {
    throw new BadInputError(`module_defaults for '${written}' must give a mapping of arguments, got ${JSON.stringify(rendered)}`, loc);
  }
  return rendered as Vars;
}
