// Lookup plugins (lib/ansible/plugins/lookup/*.py). Everything a lookup reads is data: the template's
// output is never rendered again (unsafe.ts), so file text or command output with `{{` stays literal.
// Relative files are found like Ansible's find_file_in_search_path: the role's <subdir>/ and the role,
// the playbook dir's <subdir>/ and the playbook dir, then the working directory.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { percentFormat } from './filters/ansible-more.js';
import { LIST_LOOKUPS, flattenOnce } from './lookups-lists.js';
import { passwordLookup } from './lookup-password.js';
import { configLookup, templateLookup } from './lookup-template.js';
import { isPlainObject, pyStr, pyTypeName } from './py.js';
import { TemplateFailure } from './undefined.js';
import { findFile } from './lookup-files.js';
import { inventoryHostnamesLookup } from './lookup-inventory.js';
import { filetreeLookup } from './lookup-filetree.js';
import { setOwn } from '../../own-keys.js';

export type Vars = Record<string, unknown>;
type Lookup = (terms: unknown[], kw: Record<string, unknown>, vars: Vars) => unknown[];

function readText(term: unknown, vars: Vars, subdir: string): string {
  const path = findFile(pyStr(term), vars, subdir);
  try {
    if (path) return readFileSync(path, 'utf8');
  } catch {
    /* reported below */
  }
  throw new TemplateFailure(`could not locate file in lookup: ${pyStr(term)}`);
}

/** A controller-side shell command, run in the playbook's directory as Ansible's pipe/lines do. */
function run(plugin: string, term: unknown, vars: Vars): string {
  const cmd = pyStr(term);
  const cwd = typeof vars.role_path === 'string' ? vars.role_path : typeof vars.playbook_dir === 'string' ? vars.playbook_dir : process.cwd();
  const r = spawnSync('/bin/sh', ['-c', cmd], { cwd: existsSync(cwd) ? cwd : process.cwd(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.error) throw new TemplateFailure(`lookup_plugin.${plugin}(${cmd}) failed: ${r.error.message}`);
  if (r.status !== 0) throw new TemplateFailure(`lookup_plugin.${plugin}(${cmd}) returned ${r.status ?? r.signal}`);
  return r.stdout;
}

/** sequence: `start=1 end=5 stride=1 format=%d`, `count=N`, or the shortcut `[start-]end[/stride][:format]`. */
function sequence(term: string, kw: Record<string, unknown>): string[] {
  const o: Record<string, string> = {};
  const short = /^(?:(-?\d+|0x[0-9a-f]+|0o[0-7]+)-)?(-?\d+|0x[0-9a-f]+|0o[0-7]+)(?:\/(-?\d+|0x[0-9a-f]+|0o[0-7]+))?(?::(.+))?$/i.exec(term.trim());
  if (short) Object.assign(o, { start: short[1] ?? '1', end: short[2]!, ...(short[3] ? { stride: short[3] } : {}), ...(short[4] ? { format: short[4] } : {}) });
  else for (const m of term.matchAll(/(\w+)=(\S+)/g)) o[m[1]!] = m[2]!;
  for (const [k, v] of Object.entries(kw)) setOwn(o, k, pyStr(v));
  const num = (s: string): number => Number(s.replace(/^0o/i, '0o'));
  const start = num(o.start ?? '1');
  const stride = num(o.stride ?? '1');
  if (o.count !== undefined && o.end !== undefined) throw new TemplateFailure("can't specify both count and end in with_sequence");
  const end = o.count !== undefined ? start + (num(o.count) - 1) * stride : o.end !== undefined ? num(o.end) : NaN;
  if ([start, end, stride].some(Number.isNaN)) throw new TemplateFailure(`unknown arguments or bad values in sequence: ${term}`);
  if (stride > 0 && end < start) throw new TemplateFailure('to count backwards make stride negative');
  if (stride < 0 && end > start) throw new TemplateFailure('to count forward don\'t make stride negative');
  const out: string[] = [];
  for (let i = start; stride === 0 ? false : stride > 0 ? i <= end : i >= end; i += stride) out.push(percentFormat(o.format ?? '%d', [i]));
  return out;
}

function globToRegex(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]').replace(/\[!/g, '[^');
  return new RegExp(`^${body}$`);
}

/** first_found: terms are file names or {files, paths, skip} dicts; the first existing path. */
function firstFound(terms: unknown[], kw: Record<string, unknown>, vars: Vars): unknown[] {
  const candidates: string[] = [];
  let skip = Boolean(kw.skip);
  const add = (files: unknown, paths: unknown): void => {
    const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(pyStr) : v === undefined || v === null ? [] : pyStr(v).split(/[,;:]/)).map((s) => s.trim()).filter(Boolean);
    const ps = list(paths);
    for (const f of list(files)) candidates.push(...(ps.length ? ps.map((p) => join(p, f)) : [f]));
  };
  if (kw.files !== undefined) add(kw.files, kw.paths);
  for (const t of terms.flat()) {
    if (isPlainObject(t)) {
      add(t.files, t.paths);
      if (t.skip) skip = true;
    } else add([pyStr(t)], kw.paths);
  }
  const subdir = String(kw._subdir ?? 'files');
  for (const c of candidates) {
    const found = findFile(c, vars, subdir);
    if (found) return [found];
  }
  if (skip) return [];
  throw new TemplateFailure('No file was found when using first_found.');
}

export const LOOKUPS: Record<string, Lookup> = {
  env: (terms, kw) => terms.map((t) => process.env[pyStr(t)] ?? (kw.default === undefined ? '' : kw.default)),
  file: (terms, kw, vars) => terms.map((t) => {
    let text = readText(t, vars, 'files');
    if (kw.rstrip !== false) text = text.replace(/\s+$/, '');
    if (kw.lstrip === true) text = text.replace(/^\s+/, '');
    return text;
  }),
  pipe: (terms, _kw, vars) => terms.map((t) => run('pipe', t, vars).trimEnd()),
  lines: (terms, _kw, vars) => terms.flatMap((t) => run('lines', t, vars).split(/\r\n|\r|\n/).filter((l, i, a) => i < a.length - 1 || l !== '')),
  vars: (terms, kw, vars) => terms.map((t) => {
    const name = pyStr(t);
    if (name in vars && vars[name] !== undefined) return vars[name];
    if ('default' in kw) return kw.default;
    throw new TemplateFailure(`No variable found with this name: ${name}`);
  }),
  items: (terms) => flattenOnce(terms),
  dict: (terms) => terms.flatMap((t) => {
    if (!isPlainObject(t)) throw new TemplateFailure(`with_dict expects a dict, got ${pyTypeName(t)}`);
    return Object.entries(t).map(([key, value]) => ({ key, value }));
  }),
  sequence: (terms, kw) => terms.flatMap((t) => sequence(pyStr(t), kw)),
  fileglob: (terms, _kw, vars) => terms.flatMap((t) => {
    const term = pyStr(t);
    const dir = dirname(term);
    const base = findFile(dir, vars, 'files') ?? (isAbsolute(dir) ? dir : join(process.cwd(), dir));
    let names: string[] = [];
    try {
      names = readdirSync(base).sort();
    } catch {
      return [];
    }
    const re = globToRegex(basename(term));
    return names.filter((n) => re.test(n) && statSync(join(base, n), { throwIfNoEntry: false })?.isFile()).map((n) => join(base, n));
  }),
  first_found: firstFound,
  template: templateLookup,
  config: configLookup,
  password: passwordLookup,
  inventory_hostnames: inventoryHostnamesLookup,
  filetree: filetreeLookup,
  'community.general.filetree': filetreeLookup,
  ...LIST_LOOKUPS,
};
