// Installs filters, tests and globals on the environment. Filters refuse an undefined input (naming the
// variable) except default/d/mandatory; tests answer for undefined only where Jinja does. Every name is
// also reachable as ansible.builtin.X, ansible.utils.X and ansible.netcommon.X.
import type nunjucks from 'nunjucks';
import type { Fn } from './filters/args.js';
import { moreFilters } from './filters/ansible-more.js';
import { collectionFilters } from './filters/collections.js';
import { dataFilters } from './filters/data.js';
import { ipFilters } from './filters/ip.js';
import { listFilters } from './filters/lists.js';
import { selectFilters } from './filters/select.js';
import { textFilters } from './filters/text.js';
import { globals } from './globals.js';
import { TEST_ALIASES, UNDEF_SAFE_TESTS, tests } from './tests.js';
import { Undef, UndefinedError } from './undefined.js';
import { noteFilterInput } from './taint.js';

const UNDEF_SAFE_FILTERS = new Set(['default', 'd', 'mandatory']);
const NAMESPACES = ['ansible.builtin.', 'ansible.utils.', 'ansible.netcommon.'];

/** Filters refuse undefined input; what they consume may taint the render (see taint.ts). */
function guard(fn: Fn, undefOk: boolean): Fn {
  return function (this: unknown, v: unknown, ...args: unknown[]) {
    if (!undefOk && v instanceof Undef) throw new UndefinedError(v);
    noteFilterInput([v, ...args]);
    return fn.call(this, v, ...args);
  };
}

export function registerAll(environment: nunjucks.Environment): void {
  const env = environment as nunjucks.Environment & { addTest(name: string, fn: Fn): void; getTest(name: string): unknown };
  const filters: Record<string, Fn> = { ...textFilters, ...dataFilters, ...listFilters, ...ipFilters, ...selectFilters(env), ...moreFilters, ...collectionFilters };
  // nunjucks' own filters (batch, center, indent, title, wordcount, ...) stay, behind the same guard.
  const builtin = (env as unknown as { filters: Record<string, Fn> }).filters;
  for (const [name, fn] of Object.entries(builtin)) filters[name] ??= fn;
  for (const [name, fn] of Object.entries(filters)) {
    const g = guard(fn, UNDEF_SAFE_FILTERS.has(name));
    env.addFilter(name, g);
    for (const ns of NAMESPACES) env.addFilter(ns + name, g);
  }
  const all: Record<string, Fn> = { ...tests };
  for (const [alias, target] of Object.entries(TEST_ALIASES)) all[alias] = tests[target]!;
  for (const [name, fn] of Object.entries(all)) {
    const g = guard(fn, UNDEF_SAFE_TESTS.has(name) || UNDEF_SAFE_TESTS.has(TEST_ALIASES[name] ?? ''));
    env.addTest(name, g);
    for (const ns of NAMESPACES) env.addTest(ns + name, g);
  }
  for (const [name, v] of Object.entries(globals)) env.addGlobal(name, v);
}
