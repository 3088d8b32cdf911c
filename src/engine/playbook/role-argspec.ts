// Ansible's role argument validation (Role._prepend_validation_task, ansible-core 2.14): a role whose
// meta/argument_specs.yml (or meta/main.yml `argument_specs:`) has a spec for the entry point (main,
// or tasks_from) gets a validate_argument_spec task first, tagged always, checking the role's params.
import path from 'node:path';
import { BadInputError } from '../../errors.js';
import { locOf } from '../yaml-source.js';
import { describe } from './keyword-types.js';
import { findRoleFile, readRoleFile } from './role-files.js';
import { loadTaskList, type TaskLoadContext } from './load-tasks.js';
import type { TaskItem, Vars } from './types.js';

const isDict = (v: unknown): v is Vars => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The role's argument_specs (empty when it has none); meta/argument_specs.yml wins over meta/main.yml. */
async function roleArgumentSpecs(dir: string): Promise<Vars> {
  const specFile = ['.yml', '.yaml'].some((ext) => findRoleFile(dir, 'meta', `argument_specs${ext}`) !== undefined) ? 'argument_specs' : undefined;
  const data = await readRoleFile(dir, 'meta', specFile);
  const specs = isDict(data) ? data.argument_specs : undefined;
  if (specs === undefined || specs === null) return {};
  if (!isDict(specs)) throw new BadInputError(`argument_specs must be a mapping of entry points (main: {options: ...}), got ${describe(specs)}`, locOf(specs) ?? { file: path.join(dir, 'meta') });
  return specs;
}

/** The validation task for `entry` (as a loaded task list), or nothing when the role has no spec for it. */
export async function argumentSpecTask(dir: string, entry: string, params: Vars, ctx: TaskLoadContext): Promise<TaskItem[]> {
  const spec = (await roleArgumentSpecs(dir))[entry];
  if (!isDict(spec)) return [];
  const options = spec.options ?? {};
  if (!isDict(options)) throw new BadInputError(`argument_specs.${entry}.options must be a mapping of options, got ${describe(options)}`, locOf(options) ?? locOf(spec) ?? { file: path.join(dir, 'meta') });
  const name = `Validating arguments against arg spec '${entry}'${spec.short_description === undefined ? '' : ` - ${String(spec.short_description)}`}`;
  const task = {
    name,
    tags: ['always'],
    'ansible.builtin.validate_argument_spec': {
      argument_spec: options,
      provided_arguments: params,
      validate_args_context: { type: 'role', name: path.basename(dir), argument_spec_name: entry, path: dir },
    },
  };
  return loadTaskList([task], ctx, 'tasks', locOf(spec) ?? { file: path.join(dir, 'meta') });
}
