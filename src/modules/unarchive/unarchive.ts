// unarchive: ansible-core 2.14's unarchive (action plugin + module) for GNU tar's formats. The
// controller's archive is streamed once over the host's connection into a private temp folder (or
// remote_src names one on the host); one exec reads what main() checks, tar --list and tar --diff
// (read.ts), a pure judge decides (judge.ts: handler, files, refusal of members outside dest,
// is_unarchived), tar --extract runs only when something differs, then mode/owner/group as main() sets
// them (attributes.ts). --check predicts from the same read; nothing is unpacked.
import { readFileSync } from 'node:fs';
import { inlineProbe } from '../../probe/batch.js';
import { isVaultText } from '../../vault/index.js';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { applyChanges } from '../kit/apply.js';
import { quoteWord } from '../kit/shell-words.js';
import { findSource } from '../kit/source.js';
import { unarchiveArgs, type UnarchiveArgs } from './args.js';
import { attributePaths, destInfo, parseStats, planAfter, statScript } from './attributes.js';
import { unarchiveDoc } from './doc.js';
import { judge, type Verdict } from './judge.js';
import { parseRead, readScript } from './read.js';
import { flagOf, reportedCommand, tarWords } from './tar-command.js';

const existsProbe = (path: string) => ({ command: inlineProbe(`test -e ${quoteWord(path)}`), parse: (o: { rc: number }) => o.rc === 0 });

function controllerArchive(a: UnarchiveArgs, ctx: ModuleContext): Buffer | ModuleResult {
  let content: Buffer;
  try {
    content = readFileSync(findSource(ctx.baseDir, 'files', a.src));
  } catch (e) {
    return { changed: false, failed: true, msg: `Could not find or access '${a.src}' on the controller: ${(e as Error).message}` };
  }
  if (a.decrypt && isVaultText(content.subarray(0, 64).toString('latin1'))) {
    return { changed: false, failed: true, msg: `'${a.src}' is vault-encrypted: hostwire's unarchive does not decrypt archives (decrypt it first)` };
  }
  return content;
}

const failure = (e: unknown, extra: Record<string, unknown> = {}): ModuleResult => ({ changed: false, failed: true, msg: (e as Error).message, ...extra });

async function extract(a: UnarchiveArgs, ctx: ModuleContext, v: Verdict, src: string): Promise<Record<string, unknown>> {
  const r = await ctx.transport.exec(['LC_ALL=C tar', ...tarWords('extract', a, flagOf(v.handler), quoteWord(src))].join(' '), { become: ctx.become });
  return { cmd: reportedCommand(a, flagOf(v.handler), src), rc: r.code, out: r.stdout, err: r.stderr };
}

/** After the verdict: unpack when something differs, set attributes, report as main() does. */
async function act(a: UnarchiveArgs, ctx: ModuleContext, v: Verdict, src: string): Promise<ModuleResult> {
  const base: ModuleResult = { changed: false, handler: v.handler, dest: a.dest, src };
  const listed = a.list_files ? { files: v.files } : {};
  if (ctx.check) return { ...base, changed: !v.unarchived, ...listed };
  if (!v.unarchived) {
    base.extract_results = await extract(a, ctx, v, src);
    if ((base.extract_results as { rc: number }).rc !== 0) return { ...base, failed: true, msg: `failed to unpack ${src} to ${a.dest}` };
    base.changed = true;
  }
  const paths = a.mode ?? a.owner ?? a.group ? attributePaths(v.files) : [];
  const read = async () => parseStats((await ctx.transport.exec(statScript(a, paths), { become: ctx.become })).stdout);
  let st = await read();
  const fixes = planAfter(a, paths, st);
  if (fixes.length) {
    await applyChanges(fixes, ctx);
    st = await read();
    base.changed = true;
  }
  return { ...base, ...listed, ...destInfo(st.dest) };
}

async function runUnarchive(a: UnarchiveArgs, ctx: ModuleContext): Promise<ModuleResult> {
  if (a.creates !== undefined && (await ctx.probe(existsProbe(a.creates)))) return { changed: false, skipped: true, msg: `skipped, since ${a.creates} exists` };
  const archive = a.remote_src ? undefined : controllerArchive(a, ctx);
  if (archive !== undefined && !Buffer.isBuffer(archive)) return archive;
  const r = await ctx.transport.exec(readScript(a), { become: ctx.become, ...(archive ? { stdin: archive } : {}) });
  const tmp = /^::tmp (.+)$/m.exec(r.stdout)?.[1];
  try {
    if (r.code !== 0 && !r.stdout.includes('::sec')) return failure(new Error(`could not read ${a.src} on the host: ${r.stderr.trim()}`));
    const read = parseRead(r.stdout);
    const src = a.remote_src ? a.src : `${tmp}/source`;
    let verdict: Verdict;
    try {
      verdict = judge(read, a, src);
    } catch (e) {
      return failure(e);
    }
    return await act(a, ctx, verdict, src);
  } finally {
    if (tmp) await ctx.transport.exec(`rm -rf -- ${quoteWord(tmp)}`, { become: ctx.become });
  }
}

export const unarchiveModule: Module<UnarchiveArgs> = {
  name: 'unarchive',
  doc: unarchiveDoc,
  args: unarchiveArgs,
  environment: 'irrelevant',
  readsAhead: (a) => (a.creates !== undefined ? [existsProbe(a.creates)] : []),
  run: runUnarchive,
};
