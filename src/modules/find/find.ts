// find: files by name, type, age, size and content (ansible.builtin.find, ansible-core 2.14: its
// arguments, aliases and defaults, its result - files with find.py's statinfo, matched, examined,
// skipped_paths, msg, warnings - and its failures). A pure read: it runs under --check as without it.
// The walk is one batched read (GNU find); only get_checksum and contains read the chosen files after.
import { z } from 'zod';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ansibleBool, ansibleInt, withAliases } from '../kit/ansible-args.js';
import { ansibleStrList } from '../kit/ansible-list.js';
import { pyRegexArg } from '../kit/py-regex.js';
import { detailsProbe, walkProbe, type WalkRequest } from './probe.js';
import { selectEntries, type FindFilter } from './walk.js';
import { contentMatches } from './content.js';
import { findDoc } from './doc.js';

const text = z.union([z.string(), z.number()]).transform(String);

const findArgs = withAliases(
  z
    .object({
      paths: ansibleStrList.refine((l) => l.length > 0, { message: 'expected at least one path' }),
      patterns: ansibleStrList.default([]),
      excludes: ansibleStrList.optional(),
      contains: pyRegexArg.optional(),
      read_whole_file: ansibleBool.default(false),
      file_type: z.enum(['any', 'directory', 'file', 'link']).default('file'),
      age: text.optional(),
      age_stamp: z.enum(['atime', 'ctime', 'mtime']).default('mtime'),
      size: text.optional(),
      recurse: ansibleBool.default(false),
      hidden: ansibleBool.default(false),
      follow: ansibleBool.default(false),
      get_checksum: ansibleBool.default(false),
      use_regex: ansibleBool.default(false),
      depth: ansibleInt.optional(),
    })
    .strict(),
  { paths: ['name', 'path'], patterns: ['pattern'], excludes: ['exclude'] },
);

export type FindArgs = z.infer<typeof findArgs>;

const AGE_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
const SIZE_UNITS: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** find.py's conversion of age (seconds) and size (bytes): a number with an optional unit letter. */
function withUnit(value: string | undefined, units: Record<string, number>): number | undefined | null {
  if (value === undefined) return undefined;
  const m = new RegExp(`^(-?\\d+)([${Object.keys(units).join('')}])?$`).exec(value.toLowerCase());
  return m ? Number(m[1]) * (units[m[2] ?? ''] ?? 1) : null;
}

const walkRequest = (a: FindArgs): WalkRequest => ({ paths: a.paths, recurse: a.recurse, depth: a.depth, follow: a.follow });

function filterOf(a: FindArgs, age: number | undefined, size: number | undefined): FindFilter {
  // Without patterns, everything: '*' (or '.*' with use_regex), so excludes alone still work.
  const patterns = a.patterns.length ? a.patterns : [a.use_regex ? '.*' : '*'];
  return { ...a, patterns, age, size };
}

async function runFind(a: FindArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const age = withUnit(a.age, AGE_UNITS);
  if (age === null) return { changed: false, failed: true, age: a.age, msg: 'failed to process age' };
  const size = withUnit(a.size, SIZE_UNITS);
  if (size === null) return { changed: false, failed: true, size: a.size, msg: 'failed to process size' };
  const walk = await ctx.probe(walkProbe(walkRequest(a)));
  const sel = selectEntries(walk, a.paths, filterOf(a, age, size));
  let files = sel.candidates.map((c) => c.record);
  const pending = sel.candidates.filter((c) => c.needsContent || c.needsChecksum);
  if (pending.length) {
    const details = await ctx.probe(detailsProbe(pending.map((c) => ({ path: c.record.path as string, sha1: c.needsChecksum, content: c.needsContent }))));
    const dropped = new Set<Record<string, unknown>>();
    pending.forEach((c, i) => {
      const d = details[i]!;
      if (c.needsContent && !contentMatches(d.content, a.contains!, a.read_whole_file)) dropped.add(c.record);
      else if (c.needsChecksum) c.record.checksum = d.sha1 ?? null;
    });
    files = files.filter((r) => !dropped.has(r));
  }
  const warned = sel.warnings.length > 0;
  return {
    files, changed: false, msg: warned ? 'Not all paths examined, check warnings for details' : 'All paths examined',
    matched: files.length, examined: sel.examined, skipped_paths: sel.skipped, ...(warned ? { warnings: sel.warnings } : {}),
  };
}

export const findModule: Module<FindArgs> = {
  name: 'find',
  doc: findDoc,
  args: findArgs,
  environment: 'irrelevant',
  run: runFind,
  readsAhead: (a) => [walkProbe(walkRequest(a))],
};
