// `diff:` on a task, block, role entry or play (Ansible: "Toggle to make tasks return 'diff'
// information or not"), inherited down at load: it overrides --diff for that task. With `diff: false`
// the result event carries no diff (not in the output, --json or the report).
import type { HostResult } from './events.js';

export function withDiffKeyword(result: HostResult, diff: boolean | undefined): HostResult {
  if (diff === undefined) return result;
  if (diff) return { ...result, diffMode: true };
  const items = result.result?.items as HostResult[] | undefined;
  const inner = Array.isArray(items) ? { ...result.result, items: items.map((i) => ({ ...i, diff: undefined })) } : result.result;
  return { ...result, diffMode: false, diff: undefined, result: inner };
}
