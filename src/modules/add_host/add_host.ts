// add_host: ansible-core 2.14's add_host action. It changes nothing on a host: it returns
// `add_host: {host_name, groups, host_vars}` and the runner adds that host to the run's in-memory
// inventory (engine/runner/run-effects.ts), whose answer (did the inventory change) is `changed`.
// Runs once per batch (BYPASS_HOST_LOOP), on the first host, with a loop once per item.
import { z } from 'zod';
import type { Module, ModuleResult } from '../types.js';
import { recordAliases } from '../kit/arg-aliases.js';
import { addHostDoc } from './doc.js';
import { setOwn } from '../../own-keys.js';

type Vars = Record<string, unknown>;
const NAME_KEYS = ['name', 'hostname', 'host'] as const;
const GROUP_KEYS = ['groupname', 'groups', 'group'] as const;
/** add_host.py's special_args: every other argument (host and group included) becomes a host var. */
const SPECIAL = new Set(['name', 'hostname', 'groupname', 'groups']);

const addHostArgs = recordAliases(
  z
    .object({
      name: z.string({ invalid_type_error: 'expected a host name' }).optional(),
      groups: z.union([z.array(z.string()), z.string()], { invalid_type_error: 'Groups must be specified as a list.' }).optional(),
    })
    .passthrough()
    .superRefine((a, ctx) => {
      const raw = (a as Vars)._raw_params;
      if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['_raw_params'], message: `Invalid raw parameters passed, requires a dictonary/mapping got a ${typeof raw}` });
      }
      if (!NAME_KEYS.some((k) => (a as Vars)[k] !== undefined)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['name'], message: 'name, host or hostname needs to be provided' });
    }),
  { name: ['hostname', 'host'], groups: ['groupname', 'group'] },
);
export type AddHostArgs = z.infer<typeof addHostArgs>;

/** parse_address: `host:port` and `[v6]:port` give the port; anything else is the name itself. */
function splitPort(name: string): { name: string; port?: number } {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(name) ?? /^([^:[\]]+):(\d+)$/.exec(name);
  return m ? { name: m[1]!, port: Number(m[2]) } : { name };
}

/** The groups as add_host.py reads them: a list, or a comma-separated string; each stripped, once. */
function groupList(v: unknown): string[] {
  const list = Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? v.split(',') : [];
  const out: string[] = [];
  for (const g of list) if (!out.includes(g)) out.push(g.trim());
  return out;
}

export function addHostResult(raw: Vars): ModuleResult {
  const args: Vars = { ...((raw._raw_params as Vars | undefined) ?? {}), ...raw };
  delete args._raw_params;
  const first = (keys: readonly string[]) => keys.map((k) => args[k]).find((v) => v !== undefined);
  const { name, port } = splitPort(String(first(NAME_KEYS)));
  if (port !== undefined) args.ansible_ssh_port = port;
  const hostVars: Vars = {};
  for (const [k, v] of Object.entries(args)) if (!SPECIAL.has(k)) setOwn(hostVars, k, v);
  return { changed: false, add_host: { host_name: name, groups: groupList(first(GROUP_KEYS)), host_vars: hostVars } };
}

export const addHostModule: Module<AddHostArgs> = {
  name: 'add_host',
  doc: addHostDoc,
  args: addHostArgs,
  bypassHostLoop: true,
  environment: 'irrelevant',
  async run(args) {
    return addHostResult(args as Vars);
  },
};
