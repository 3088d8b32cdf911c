// set_stats' custom stats, kept for the whole run as ansible-core 2.14's AggregateStats keeps them
// (executor/stats.py): per host, or for the run ('_run') when per_host is false; `aggregate` adds a
// value to the one already there (numbers add, strings and lists concatenate, dictionaries merge
// recursively), and a value of another type than the one there is dropped, as Ansible drops it.
import type { Vars } from '../playbook/types.js';
import { getOwn, hasOwn, setOwn } from '../../own-keys.js';

/** The key Ansible keeps the run's own stats under. */
export const RUN_KEY = '_run';

type Kind = 'dict' | 'list' | 'string' | 'number' | 'bool' | 'null';

const kindOf = (v: unknown): Kind =>
  v === null || v === undefined ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'dict' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : 'number';

/** utils/vars.py merge_hash with its defaults (recursive, lists replaced). */
function mergeHash(a: Vars, b: Vars): Vars {
  const out: Vars = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const old = getOwn(out, k);
    setOwn(out, k, kindOf(old) === 'dict' && kindOf(v) === 'dict' ? mergeHash(old as Vars, v as Vars) : v);
  }
  return out;
}

/** Python's `+=` on two values of one kind; undefined when Python would not add them. */
function added(old: unknown, value: unknown): unknown {
  switch (kindOf(old)) {
    case 'dict': return mergeHash(old as Vars, value as Vars);
    case 'list': return [...(old as unknown[]), ...(value as unknown[])];
    case 'string': return (old as string) + (value as string);
    case 'number': return (old as number) + (value as number);
    default: return undefined;
  }
}

export class CustomStats {
  /** host (or '_run') -> stat name -> value, in the order first set. */
  readonly byHost = new Map<string, Vars>();

  set(name: string, value: unknown, host = RUN_KEY): void {
    const stats = this.byHost.get(host);
    if (stats) setOwn(stats, name, value);
    else this.byHost.set(host, { [name]: value });
  }

  update(name: string, value: unknown, host = RUN_KEY): void {
    const stats = this.byHost.get(host);
    if (!stats || !hasOwn(stats, name)) return this.set(name, value, host);
    const old = stats[name];
    // Python's isinstance(what, type(old)): a value of another type leaves the stat as it was.
    if (kindOf(old) !== kindOf(value)) return;
    const sum = added(old, value);
    if (sum !== undefined) setOwn(stats, name, sum);
  }

  /** One set_stats result (`ansible_stats`): `hosts` are the hosts it counts for when per_host. */
  record(stats: Vars, hosts: string[]): void {
    const data = stats.data;
    if (kindOf(data) !== 'dict' || Object.keys(data as Vars).length === 0) return;
    const targets: (string | undefined)[] = stats.per_host === undefined || stats.per_host ? hosts : [undefined];
    for (const host of targets) {
      for (const [k, v] of Object.entries(data as Vars)) {
        if (stats.aggregate) this.update(k, v, host);
        else this.set(k, v, host);
      }
    }
  }

  /** Plain data for the summary: { host: { stat: value }, _run: {...} }. */
  toJSON(): Record<string, Vars> {
    return Object.fromEntries(this.byHost);
  }
}
