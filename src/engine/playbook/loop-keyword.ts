// A task's loop keyword: `loop:` or one `with_X:` (X a lookup plugin hostwire has; the lookup runs
// when the task does, see vars/loop-items.ts). Ansible refuses two loops on one task ("duplicate
// loop in task"); an unknown lookup is named here, at load, with its file:line.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { locOf } from '../yaml-source.js';
import { knownLoopLookups, loopLookupName } from '../vars/loop-items.js';

export function loopKeyword(t: Record<string, unknown>, loc: SourceLoc): { loop?: unknown; loopWith?: string } {
  const keys = Object.keys(t).filter((k) => k === 'loop' || k.startsWith('with_'));
  if (keys.length === 0) return {};
  const at = (k: string): SourceLoc => locOf(t, k) ?? loc;
  if (keys.length > 1) throw new BadInputError(`duplicate loop in task: '${keys[0]}' and '${keys[1]}' (a task has one loop)`, at(keys[1]!));
  const key = keys[0]!;
  if (key === 'loop') return { loop: t.loop };
  const name = loopLookupName(key);
  if (!name) {
    throw new BadInputError(`'${key}': no lookup plugin named '${key.slice(5)}' (with_X runs the lookup X; hostwire has ${knownLoopLookups().join(', ')})`, at(key));
  }
  return { loop: t[key], loopWith: name };
}
