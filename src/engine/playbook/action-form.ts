// Which key of a task is its action, as Ansible's ModuleArgsParser (parsing/mod_args.py) decides it:
// a module key, or the old-style `action:` / `local_action:` forms (`action: copy src=a dest=b`,
// `action: {module: copy, src: a}`), local_action also delegating the task to localhost.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { locOf } from '../yaml-source.js';
import { describe } from './keyword-types.js';

/** The action of a task: the name as written, its raw arguments, and a delegate the form implies. */
export interface ActionForm {
  /** As written ('ansible.builtin.command', 'copy'): --list-tasks shows an unnamed task by it. */
  written: string;
  /** A string (key=value or free form) or a mapping, as after a module key. */
  rawArgs: unknown;
  /** Arguments given beside the module in the dict form (`{module: x, k: v}`). */
  extraArgs?: Record<string, unknown>;
  delegateTo?: string;
  loc: SourceLoc;
}

/**
 * Names Ansible resolves as its own internal actions also under the `ansible.builtin.` and
 * `ansible.legacy.` prefixes (utils/fqcn.py add_internal_fqcns); any other collection is not them.
 */
export function internalAction(written: string): string | undefined {
  const m = /^(?:ansible\.(?:builtin|legacy)\.)?([A-Za-z_]\w*)$/.exec(written);
  return m ? m[1] : undefined;
}

/** `copy src=a dest=b` -> ['copy', 'src=a dest=b']: the first word names the module. */
function splitModuleString(text: string): [string, string] {
  const m = /^\s*(\S+)\s*([\s\S]*)$/.exec(text);
  return m ? [m[1]!, m[2]!.trim()] : ['', ''];
}

function oldStyle(t: Record<string, unknown>, key: 'action' | 'local_action', loc: SourceLoc): ActionForm {
  const thing = t[key];
  const at = locOf(t, key) ?? loc;
  const delegateTo = key === 'local_action' ? 'localhost' : undefined;
  if (typeof thing === 'string') {
    const [written, rest] = splitModuleString(thing);
    if (!written) throw new BadInputError(`'${key}' must name a module, e.g. ${key}: command echo hi`, at);
    return { written, rawArgs: rest, delegateTo, loc: at };
  }
  if (thing && typeof thing === 'object' && !Array.isArray(thing)) {
    const d = thing as Record<string, unknown>;
    if (typeof d.module !== 'string' || !d.module.trim()) {
      throw new BadInputError(`'${key}' as a mapping needs 'module: <name>' (the other keys are its arguments)`, at);
    }
    const [written, rest] = splitModuleString(d.module);
    const { module: _module, ...extraArgs } = d;
    return { written, rawArgs: rest, extraArgs, delegateTo, loc: at };
  }
  throw new BadInputError(`'${key}' must be a module string or a mapping with module:, got ${describe(thing)}`, at);
}

/** `moduleKeys`: the task's keys that are neither keywords nor with_* loops. */
export function taskAction(t: Record<string, unknown>, moduleKeys: string[], loc: SourceLoc, taskName?: string): ActionForm {
  const hasAction = 'action' in t;
  const hasLocal = 'local_action' in t;
  if (hasAction && hasLocal) throw new BadInputError('action and local_action are mutually exclusive', locOf(t, 'local_action') ?? loc);
  if (hasAction || hasLocal) {
    if (moduleKeys.length) {
      throw new BadInputError(`conflicting action statements: ${hasAction ? 'action' : 'local_action'}, ${moduleKeys[0]}`, locOf(t, moduleKeys[0]) ?? loc);
    }
    return oldStyle(t, hasAction ? 'action' : 'local_action', loc);
  }
  if (moduleKeys.length === 0) {
    throw new BadInputError(`no module/action detected in task${taskName ? ` '${taskName}'` : ''}: expected one module key besides keywords`, loc);
  }
  if (moduleKeys.length > 1) {
    throw new BadInputError(`conflicting action statements: ${moduleKeys.join(', ')} (a task takes exactly one module; unknown keywords count as modules)`, locOf(t, moduleKeys[1]) ?? loc);
  }
  const written = moduleKeys[0]!;
  return { written, rawArgs: t[written], loc: locOf(t, written) ?? loc };
}
