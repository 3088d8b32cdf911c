// Task and play keywords, as Ansible spells them. Anything else in a task is its module.
export const TASK_KEYWORDS = new Set([
  'name', 'when', 'loop', 'loop_control', 'register', 'notify', 'changed_when', 'failed_when', 'ignore_errors',
  'until', 'retries', 'delay', 'tags', 'check_mode', 'no_log', 'delegate_to', 'run_once', 'become',
  'become_user', 'become_method', 'vars', 'args', 'listen', 'environment', 'connection', 'block', 'rescue', 'always',
  'any_errors_fatal', 'ignore_unreachable', 'diff', 'debugger', 'throttle', 'timeout', 'collections',
  'action', 'local_action', 'delegate_facts', 'async', 'poll', 'remote_user', 'module_defaults',
]);

export const PLAY_KEYWORDS = new Set([
  'name', 'hosts', 'vars', 'vars_files', 'roles', 'pre_tasks', 'tasks', 'post_tasks', 'handlers',
  'gather_facts', 'gather_subset', 'become', 'become_user', 'become_method', 'serial', 'any_errors_fatal',
  'max_fail_percentage', 'strategy', 'tags', 'check_mode', 'connection', 'remote_user', 'environment',
  'collections', 'order', 'force_handlers', 'ignore_unreachable', 'no_log', 'diff', 'vars_prompt', 'module_defaults',
  'run_once', 'ignore_errors', 'debugger', 'timeout',
]);

/** Keys of a play's `roles:` entry that are keywords, not role parameters. */
// Ansible's RoleInclude takes every Base/Become/Conditional/Taggable/Delegatable keyword; the ones a
// task accepts are keywords here too (never role parameters).
export const ROLE_ENTRY_KEYWORDS = new Set([
  'role', 'name', 'vars', 'when', 'tags', 'become', 'become_user', 'check_mode', 'environment',
  'ignore_errors', 'no_log', 'delegate_to', 'delegate_facts', 'any_errors_fatal', 'run_once', 'connection',
  'become_method', 'collections', 'debugger', 'diff', 'throttle', 'module_defaults', 'remote_user', 'timeout', 'ignore_unreachable',
]);


/** Strip ansible.builtin./ansible.posix./community.general. style prefixes. */
export function shortModuleName(name: string): string {
  const i = name.lastIndexOf('.');
  return i >= 0 ? name.slice(i + 1) : name;
}

/** Modules whose free-form string is the command itself rather than key=value pairs. */
export const FREE_FORM_MODULES = new Set(['command', 'shell', 'raw', 'script', 'include_tasks', 'import_tasks', 'meta', 'include_vars']);
