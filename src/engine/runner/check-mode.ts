// The effective check mode of one task: its own `check_mode`, else the innermost block's or role's,
// else the play's, else --check (Ansible's keyword inheritance: task > block > role > play).
import type { SourceLoc } from '../../errors.js';
import { renderValue } from '../vars/index.js';
import { strictBoolean } from '../playbook/keyword-values.js';
import type { Vars } from '../playbook/types.js';

/** A check_mode value as loaded: a literal boolean or a template rendered per host. */
export type CheckModeValue = boolean | string | undefined;

/**
 * `chain`: the check_mode values that apply, outermost first (play, roles/blocks, task); the last
 * one set wins, and none set means --check. `vars` is only built when the winner is a template.
 */
export function effectiveCheckMode(chain: CheckModeValue[], cliCheck: boolean, vars: () => Vars, loc?: SourceLoc): boolean {
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = chain[i];
    if (v === undefined) continue;
    if (typeof v === 'boolean') return v;
    return strictBoolean(renderValue(v, vars(), loc), 'check_mode', loc);
  }
  return cliCheck;
}
