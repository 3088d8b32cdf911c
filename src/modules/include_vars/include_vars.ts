// include_vars: ansible-core 2.14's include_vars action on the controller - its arguments and checks,
// the files it finds (find.ts), what it loads and registers. The values land at include_vars'
// precedence level (Module.factsLevel); the runner lends the vars-file reader (vault, PyYAML rules).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { HostwireError } from '../../errors.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ansibleBool, ansibleInt } from '../kit/ansible-args.js';
import { dirRoot, fileCandidates, walkSorted, type Where } from './find.js';
import { includeVarsDoc } from './doc.js';
import { mergeIntoCurrent } from './merge.js';

type Vars = Record<string, unknown>;
const DIR_ARGS = ['dir', 'depth', 'files_matching', 'ignore_files', 'extensions', 'ignore_unknown_extensions'] as const;
const FILE_ARGS = ['file', '_raw_params'] as const;
const words = z.union([z.array(z.string()), z.string()]);

const includeVarsArgs = z
  .object({
    _raw_params: z.string().optional(),
    file: z.string().optional(),
    dir: z.string().optional(),
    depth: ansibleInt.optional(),
    files_matching: z.string().optional(),
    ignore_files: words.optional(),
    extensions: words.optional(),
    ignore_unknown_extensions: ansibleBool.optional(),
    name: z.string().optional(),
    hash_behaviour: z.enum(['replace', 'merge']).optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    const given = (ks: readonly string[]) => ks.some((k) => (a as Vars)[k] !== undefined);
    if (given(DIR_ARGS) && given(FILE_ARGS)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'You are mixing file only and dir only arguments, these are incompatible', path: ['dir'] });
    if (!a.dir && !a.file && !a._raw_params?.trim()) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected file, dir or a file name as the task\'s value', path: ['file'] });
  });

export type IncludeVarsArgs = z.infer<typeof includeVarsArgs>;

/** Loading stopped: include_vars' failed result (its text in `message`, as the action returns it). */
class LoadFailure extends Error {}

const isDict = (v: unknown): v is Vars => v !== null && typeof v === 'object' && !Array.isArray(v);

interface Loader {
  read(file: string): Promise<unknown>;
  included: string[];
}

async function loadFile(file: string, l: Loader, extensions?: string[]): Promise<Vars> {
  if (extensions && !extensions.includes(path.extname(file).slice(1))) {
    throw new LoadFailure(`${file} does not have a valid extension: ${extensions.join(', ')}`);
  }
  const data = (await l.read(file)) ?? {};
  if (!isDict(data)) throw new LoadFailure(`${file} must be stored as a dictionary/hash`);
  l.included.push(file);
  return data;
}

const asList = (v: string[] | string | undefined, split: boolean): string[] | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v : split ? v.split(/\s+/).filter(Boolean) : [v];

async function loadDir(a: IncludeVarsArgs, w: Where, l: Loader): Promise<Vars> {
  const root = dirRoot(a.dir!, w);
  if (!existsSync(root)) throw new LoadFailure(`${root} directory does not exist`);
  if (!statSync(root).isDirectory()) throw new LoadFailure(`${root} is not a directory`);
  const matcher = a.files_matching ? new RegExp(a.files_matching) : undefined;
  const ignore = (asList(a.ignore_files, true) ?? []).map((p) => new RegExp(`${p}$`));
  const extensions = asList(a.extensions, false) ?? ['yaml', 'yml', 'json'];
  const depth = a.depth ?? 0;
  let out: Vars = {};
  for (const [i, { dir, files }] of walkSorted(root).entries()) {
    if (depth !== 0 && i >= depth) break;
    for (const f of files) {
      if (matcher && !matcher.test(f)) continue;
      if (ignore.some((r) => r.test(f))) continue;
      if (a.ignore_unknown_extensions && !extensions.includes(path.extname(f).slice(1))) continue;
      out = { ...out, ...(await loadFile(path.join(dir, f), l, extensions)) };
    }
  }
  return out;
}

async function loadNamedFile(name: string, w: Where, l: Loader): Promise<Vars> {
  const tried = fileCandidates(name.replace(/\n+$/, ''), w);
  const found = tried.find((p) => existsSync(p) && statSync(p).isFile());
  if (!found) {
    // _find_needle's AnsibleFileNotFound text, its hint included.
    const hint = ' on the Ansible Controller.\nIf you are using a module and expect the file to exist on the remote, see the remote_src option';
    throw new LoadFailure(`Could not find or access '${name}'\nSearched in:\n${tried.map((p) => `\t${p}`).join('\n')}${hint}`);
  }
  return loadFile(found, l);
}

async function runIncludeVars(a: IncludeVarsArgs, ctx: ModuleContext): Promise<ModuleResult> {
  if (!ctx.readVarsFile) throw new HostwireError('internal', 'include_vars needs the runner\'s vars-file reader (ModuleContext.readVarsFile)');
  const playbookDir = typeof ctx.vars.playbook_dir === 'string' ? ctx.vars.playbook_dir : ctx.baseDir;
  const where: Where = { rolePath: typeof ctx.vars.role_path === 'string' ? ctx.vars.role_path : undefined, playbookDir };
  const loader: Loader = { read: ctx.readVarsFile, included: [] };
  let results: Vars;
  try {
    results = a.dir !== undefined ? await loadDir(a, where, loader) : await loadNamedFile((a.file ?? a._raw_params)!, where, loader);
  } catch (e) {
    if (!(e instanceof LoadFailure)) throw e;
    return { changed: false, failed: true, message: e.message, msg: e.message, ansible_facts: {}, ansible_included_var_files: loader.included };
  }
  if (a.name) results = { [a.name]: results };
  if (a.hash_behaviour === 'merge') {
    // An AnsibleError out of the action's run(): the task fails with its text alone.
    const merged = mergeIntoCurrent(results, ctx.vars, a.name !== undefined);
    if ('error' in merged) return { changed: false, failed: true, msg: merged.error };
    results = merged.vars;
  }
  return { changed: false, ansible_included_var_files: loader.included, ansible_facts: results };
}

export const includeVarsModule: Module<IncludeVarsArgs> = {
  name: 'include_vars',
  doc: includeVarsDoc,
  args: includeVarsArgs,
  factsLevel: 'include_vars',
  environment: 'irrelevant',
  run: runIncludeVars,
};
