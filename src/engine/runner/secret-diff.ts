// A task whose args (or a template it renders) read a secret shows no diff, as if it had Ansible's
// `diff: false`: the old value comes from the host and is not known to be secret, so after a secret
// changes the diff would print the previous one in clear (--diff, -v, the HTML report, a register).
import type { ModuleResult } from '../../modules/types.js';

export const SECRET_DIFF_NOTE = '(hidden: the task uses a secret)';

export function hideSecretDiff(result: ModuleResult): void {
  if (!result.diff?.length) return;
  result.diff = result.diff.map((d) => ({ header: d.header, before: SECRET_DIFF_NOTE, after: SECRET_DIFF_NOTE }));
}
