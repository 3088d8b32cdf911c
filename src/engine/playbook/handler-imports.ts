// import_tasks among handlers, as Ansible runs it: the import is replaced by the tasks it imports, each
// a handler notified by its own name or listen topic ("a static include itself cannot be notified").
// The import's own keywords reach each of its tasks, as they would through the block it is elsewhere.
import { BadInputError } from '../../errors.js';
import type { BlockDef, TaskDef, TaskItem } from './types.js';

/** The handlers of a loaded handler list: tasks as they are, import_tasks flattened; blocks refused. */
export function handlersOf(items: TaskItem[]): TaskDef[] {
  const out: TaskDef[] = [];
  for (const it of items) {
    if (it.kind === 'task') out.push(it);
    else if (it.imported && !it.rescue.length && !it.always.length) out.push(...handlersOf(it.block).map((h) => withImport(h, it)));
    else throw new BadInputError('handlers cannot be blocks', it.loc);
  }
  return out;
}

function withImport(h: TaskDef, imp: BlockDef): TaskDef {
  return {
    ...h,
    when: [...imp.when, ...h.when],
    tags: [...new Set([...imp.tags, ...h.tags])],
    vars: { ...imp.vars, ...h.vars },
    become: h.become ?? imp.become,
    becomeUser: h.becomeUser ?? imp.becomeUser,
    checkMode: h.checkMode ?? imp.checkMode,
    environment: environmentOf(h, imp),
    moduleDefaults: imp.moduleDefaults || h.moduleDefaults ? [...(imp.moduleDefaults ?? []), ...(h.moduleDefaults ?? [])] : undefined,
    connection: h.connection ?? imp.connection,
    runOnce: h.runOnce ?? imp.runOnce,
  };
}

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The import's environment under the task's own (per key, the task's wins). */
function environmentOf(h: TaskDef, imp: BlockDef): unknown {
  if (imp.environment === undefined || imp.environment === null) return h.environment;
  if (h.environment === undefined || h.environment === null) return imp.environment;
  if (isMapping(imp.environment) && isMapping(h.environment)) return { ...imp.environment, ...h.environment };
  throw new BadInputError('a handler with its own environment inside an import_tasks with an environment: give both as mappings (a template cannot be merged before the run)', h.loc);
}
