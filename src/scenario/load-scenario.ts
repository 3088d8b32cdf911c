// molecule/<scenario>/scenario.yml: the hosts (groups, vars), the sequence and the playbooks.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../errors.js';
import { locOf, readYamlFile } from '../engine/yaml-source.js';

export const ALL_STEPS = ['create', 'prepare', 'converge', 'idempotence', 'check', 'verify', 'destroy'] as const;
export type Step = (typeof ALL_STEPS)[number];

export interface ScenarioHost {
  name: string;
  groups: string[];
  vars: Record<string, unknown>;
  /** `vm`: a qemu guest with its own kernel (ipip, kernel OVS); default nspawn. */
  kind: 'nspawn' | 'vm';
}

export interface Scenario {
  name: string;
  dir: string;
  hosts: ScenarioHost[];
  sequence: Step[];
  converge: string;
  verify?: string;
  prepare?: string;
  /** Extra Debian packages for the lab rootfs. */
  packages: string[];
  /** Group vars for the generated inventory. */
  groupVars: Record<string, Record<string, unknown>>;
  /** Expected outcome of a step for negative scenarios (e.g. idempotence: fail). */
  expect: Partial<Record<Step, 'pass' | 'fail'>>;
}

export async function loadScenario(dir: string): Promise<Scenario> {
  const file = path.join(dir, 'scenario.yml');
  if (!existsSync(file)) throw new BadInputError(`no scenario.yml in ${dir}`);
  const raw = (await readYamlFile(file)) as Record<string, unknown> | null;
  if (!raw || typeof raw !== 'object') throw new BadInputError('scenario.yml must be a mapping (hosts, sequence, ...)', { file, line: 1 });
  const hostsRaw = raw.hosts;
  if (!Array.isArray(hostsRaw) || hostsRaw.length === 0) throw new BadInputError("'hosts' must be a non-empty list of {name, groups, vars}", locOf(raw, 'hosts') ?? { file });
  const hosts = hostsRaw.map((h) => {
    const o = (typeof h === 'string' ? { name: h } : h) as Record<string, unknown>;
    if (typeof o.name !== 'string') throw new BadInputError('each host needs a name', locOf(h) ?? { file });
    const kind = (o.kind ?? 'nspawn') as ScenarioHost['kind'];
    if (kind !== 'nspawn' && kind !== 'vm') throw new BadInputError(`host ${o.name}: kind '${String(kind)}' is not one of nspawn, vm`, locOf(h, 'kind') ?? { file });
    return { name: o.name, groups: [o.groups ?? []].flat().map(String), vars: (o.vars as Record<string, unknown>) ?? {}, kind };
  });
  const sequence = (raw.sequence as string[] | undefined) ?? [...ALL_STEPS];
  for (const s of sequence) if (!(ALL_STEPS as readonly string[]).includes(s)) throw new BadInputError(`unknown step '${s}' (expected ${ALL_STEPS.join(', ')})`, locOf(raw, 'sequence') ?? { file });
  const opt = (name: string) => (existsSync(path.join(dir, name)) ? path.join(dir, name) : undefined);
  const converge = path.resolve(dir, String(raw.playbook ?? 'converge.yml'));
  if (!existsSync(converge)) throw new BadInputError(`the converge playbook ${converge} does not exist`, locOf(raw, 'playbook') ?? { file });
  return {
    name: path.basename(dir),
    dir,
    hosts,
    sequence: sequence as Step[],
    converge,
    verify: opt('verify.yml'),
    prepare: opt('prepare.yml'),
    packages: [raw.packages ?? []].flat().map(String),
    groupVars: (raw.group_vars as Record<string, Record<string, unknown>>) ?? {},
    expect: (raw.expect as Scenario['expect']) ?? {},
  };
}
