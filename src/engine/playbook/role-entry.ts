// A roles: entry of a play or a dependency in a role's meta/main.yml - both are Ansible's RoleInclude:
// its keywords (when, tags, become, check_mode...) make a block around the role's tasks, every other
// key is a role parameter (RoleDefinition._split_role_params).
import type { SourceLoc } from '../../errors.js';
import { locOf } from '../yaml-source.js';
import { connectionKeyword, keywordBoolean } from './keyword-values.js';
import { ROLE_ENTRY_KEYWORDS } from './keywords.js';
import { inheritCheckMode, type LoadedRole } from './load-tasks.js';
import { inheritInto, inheritIntoHandlers, type Inherited } from './inherit.js';
import { moduleDefaultsKeyword } from './module-defaults.js';
import { boolKeyword, flagKeyword, secondsKeyword, stringKeyword } from './keyword-types.js';
import { checkKeywordSupport, diffKeyword, throttleKeyword } from './keyword-support.js';
import type { BlockDef, TaskDef, Vars } from './types.js';
import { setOwn } from '../../own-keys.js';

export interface RoleEntry {
  name: string;
  /** vars: and every key that is no keyword. */
  params: Vars;
  /** What, beside the params, makes two entries the same role (Role.load's hashed_params: when, tags, vars). */
  identity: string;
}

/** The entry's role name and params; a keyword hostwire does not act on is refused (keyword-support.ts). */
export function roleEntry(spec: Vars, loc: SourceLoc): RoleEntry {
  checkKeywordSupport(spec, loc);
  const params: Vars = { ...((spec.vars as Vars) ?? {}) };
  for (const [k, v] of Object.entries(spec)) if (!ROLE_ENTRY_KEYWORDS.has(k)) setOwn(params, k, v);
  const identity = JSON.stringify([spec.when ?? null, spec.tags ?? null, spec.vars ?? null]);
  return { name: String(spec.role ?? spec.name ?? ''), params, identity };
}

/** The loaded role as a block with the entry's keywords, and its handlers inheriting them. */
export function roleEntryBlock(spec: Vars, loc: SourceLoc, params: Vars, loaded: LoadedRole): { block: BlockDef; handlers: TaskDef[] } {
  const checkMode = keywordBoolean(spec.check_mode, 'check_mode', locOfKey(spec, 'check_mode', loc));
  const inherited = roleEntryKeywords(spec, loc);
  const handlers = inheritIntoHandlers(inheritCheckMode(loaded.handlers, checkMode), inherited);
  inheritInto(loaded.tasks, inherited);
  const block: BlockDef = {
    kind: 'block', name: undefined, when: spec.when === undefined ? [] : [spec.when].flat(), tags: [spec.tags ?? []].flat().map(String), vars: params,
    become: spec.become === undefined ? undefined : Boolean(spec.become), becomeUser: spec.become_user as string | undefined,
    runOnce: boolKeyword(spec, 'run_once', loc), connection: connectionKeyword(spec.connection, locOfKey(spec, 'connection', loc)),
    ...inherited, checkMode, environment: spec.environment ?? undefined, moduleDefaults: moduleDefaultsKeyword(spec, loc), baseDir: loaded.ctx.dir, loc, role: loaded.ctx, block: loaded.tasks, rescue: [], always: [],
    ...(loaded.listed ? { listed: loaded.listed } : {}),
  };
  return { block, handlers };
}

const locOfKey = (spec: Vars, key: string, loc: SourceLoc): SourceLoc => locOf(spec, key) ?? loc;

/** The inheritable keywords of an entry (its own when/tags/become... make the role's block). */
function roleEntryKeywords(spec: Vars, loc: SourceLoc): Inherited {
  return {
    ignoreErrors: spec.ignore_errors ?? undefined,
    ignoreUnreachable: flagKeyword(spec, 'ignore_unreachable', loc),
    noLog: boolKeyword(spec, 'no_log', loc),
    delegateTo: spec.delegate_to === undefined || spec.delegate_to === null ? undefined : String(spec.delegate_to),
    delegateFacts: boolKeyword(spec, 'delegate_facts', loc),
    anyErrorsFatal: boolKeyword(spec, 'any_errors_fatal', loc),
    remoteUser: stringKeyword(spec, 'remote_user', loc),
    diff: diffKeyword(spec, loc),
    throttle: throttleKeyword(spec, loc),
    timeout: secondsKeyword(spec, 'timeout', loc),
  };
}
