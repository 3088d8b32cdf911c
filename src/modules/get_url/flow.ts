// get_url.py's main(), step by step: the checksum (fetched when it is a URL), dest's read, the
// download (HEAD under --check), the final name in a dest folder, then replace-or-keep, the checksum
// check, mode/owner/group, and the path's attributes in the result as AnsibleModule adds them.
import { posix } from 'node:path';
import type { ModuleContext, ModuleResult } from '../types.js';
import { hostRequest } from '../kit/http-args.js';
import type { HttpResponse } from '../kit/http-helper.js';
import { planAttrs } from '../kit/attrs.js';
import { backupCommand } from '../kit/content-plan.js';
import { quoteWord } from '../kit/shell-words.js';
import { cleanDigest, digestFromFile, parseChecksumArg, urlFilename, type Algorithm } from './checksum.js';
import { destProbe, fileReadCommand, parseFileRead, type DestRead } from './dest.js';
import type { GetUrlArgs } from './args.js';

type Spec = { algorithm: Algorithm; digest: string };

const request = (a: GetUrlArgs, url: string, extra: { method?: string; save: 'file' | 'memory'; force?: boolean; ims?: number; tmp_dir?: string; digests?: string[] }) => ({
  url, method: extra.method ?? 'GET', headers: a.headers, timeout: a.timeout, validate_certs: a.validate_certs, use_proxy: a.use_proxy,
  follow_redirects: 'urllib2', username: a.url_username, password: a.url_password, force_basic_auth: a.force_basic_auth,
  http_agent: a.http_agent, force: extra.force, if_modified_since: extra.ims, save: extra.save, tmp_dir: extra.tmp_dir, digests: extra.digests,
});

/** AnsibleModule's add_path_info for an existing dest. */
export const pathInfo = (r: DestRead): Record<string, unknown> =>
  r.kind !== 'file' ? {} : { uid: r.stat.uid, gid: r.stat.gid, owner: r.stat.owner, group: r.stat.group, mode: r.stat.mode!.padStart(4, '0'), state: 'file', size: r.size };

/** A failed url_get, in get_url.py's words. */
function requestFailure(resp: HttpResponse, url: string, dest: string): ModuleResult | undefined {
  if (resp.status === -1) return { changed: false, failed: true, msg: resp.msg, url, dest, elapsed: 0 };
  if (resp.status !== 200) return { changed: false, failed: true, msg: 'Request failed', status_code: resp.status, response: resp.msg, url, dest, elapsed: 0 };
  return undefined;
}

/** `<algorithm>:<URL>`: the checksum file, read from the host, and the digest for the URL's file. */
async function checksumFromUrl(a: GetUrlArgs, ctx: ModuleContext, algorithm: Algorithm, url: string): Promise<Spec | ModuleResult> {
  const resp = await hostRequest(ctx, request(a, url, { save: 'memory' }));
  const failed = requestFailure(resp, url, a.dest);
  if (failed) return failed;
  const filename = urlFilename(a.url);
  const found = digestFromFile((resp.body ?? Buffer.alloc(0)).toString('utf8'), filename);
  if (found === undefined) return { changed: false, failed: true, msg: `Unable to find a checksum for file '${filename}' in '${url}'` };
  const spec = cleanDigest(algorithm, found);
  return 'error' in spec ? { changed: false, failed: true, msg: spec.error } : spec;
}

/** Runs shell on the host and reads dest back (the finishing exec). */
async function act(ctx: ModuleContext, steps: string[], dest: string): Promise<DestRead> {
  const r = await ctx.transport.exec(`${steps.join(' && ')}${steps.length ? ' && ' : ''}{ ${fileReadCommand(dest)}; }`, { become: ctx.become });
  if (r.code !== 0) throw new Error(`get_url: finishing ${dest} failed (rc ${r.code}): ${r.stderr.trim()}`);
  return parseFileRead({ stdout: r.stdout, rc: 0 });
}

/** mode/owner/group on dest (set_fs_attributes_if_different); the read after. */
async function applyAttrs(a: GetUrlArgs, ctx: ModuleContext, dest: string, read: DestRead): Promise<{ changed: boolean; read: DestRead }> {
  if (read.kind !== 'file') return { changed: false, read };
  const changes = planAttrs(dest, read.stat, a);
  if (!changes.length) return { changed: false, read };
  if (ctx.check) return { changed: true, read };
  return { changed: true, read: await act(ctx, changes.flatMap((c) => c.run), dest) };
}

const isSpec = (v: Spec | ModuleResult): v is Spec => typeof v.digest === 'string' && typeof v.algorithm === 'string';

/** dest's read: with the checksum's digest when a match could spare the download. */
export function getUrlDestProbe(a: GetUrlArgs) {
  const spec = a.checksum ? parseChecksumArg(a.checksum) : undefined;
  return destProbe(a.dest, spec && !('error' in spec) && !a.force ? spec.algorithm : undefined);
}

async function resolveSpec(a: GetUrlArgs, ctx: ModuleContext, base: ModuleResult): Promise<Spec | ModuleResult | undefined> {
  if (!a.checksum) return undefined;
  const spec = parseChecksumArg(a.checksum);
  if ('error' in spec) return { ...base, failed: true, msg: spec.error };
  return 'url' in spec ? checksumFromUrl(a, ctx, spec.algorithm, spec.url) : spec;
}

export async function runGetUrl(a: GetUrlArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const base: ModuleResult = { changed: false, checksum_dest: null, checksum_src: null, dest: a.dest, elapsed: 0, url: a.url };
  const resolved = await resolveSpec(a, ctx, base);
  if (resolved !== undefined && !isSpec(resolved)) return resolved;
  const spec = resolved;
  const read = await ctx.probe(getUrlDestProbe(a));
  let force = a.force;
  if (read.kind === 'file' && !force && spec) {
    if (read.digest === spec.digest) {
      const attrs = await applyAttrs(a, ctx, a.dest, read);
      return { ...base, changed: attrs.changed, msg: attrs.changed ? 'file already exists but file attributes changed' : 'file already exists', ...pathInfo(attrs.read) };
    }
    force = true;
  }
  const tmpDir = a.tmp_dest ?? (read.kind === 'dir' ? a.dest : read.kind === 'file' || read.parentExists ? posix.dirname(a.dest) : undefined);
  const digests = ['sha1', 'md5', ...(spec ? [spec.algorithm] : [])];
  const ims = read.kind === 'file' && !force ? read.mtime : undefined;
  const resp = await hostRequest(ctx, request(a, a.url, { method: ctx.check ? 'HEAD' : 'GET', save: 'file', force, ims, tmp_dir: tmpDir, digests }));
  if (resp.status === 304) return { url: a.url, dest: a.dest, changed: false, msg: resp.msg, status_code: 304, elapsed: 0, ...pathInfo(read) };
  const failed = requestFailure(resp, a.url, a.dest);
  if (failed) return failed;
  return finish(a, ctx, { base, spec, read, resp });
}

function finalDest(a: GetUrlArgs, resp: HttpResponse): string {
  const disposition = /^attachment; ?filename="?([^"]+)/.exec(resp.headers['content-disposition'] ?? '')?.[1];
  return posix.join(a.dest, disposition ? posix.basename(disposition) : urlFilename(resp.url));
}

async function finish(a: GetUrlArgs, ctx: ModuleContext, s: { base: ModuleResult; spec?: Spec; read: DestRead; resp: HttpResponse }): Promise<ModuleResult> {
  const tmp = s.resp.tmp!;
  const dest = s.read.kind === 'dir' ? finalDest(a, s.resp) : a.dest;
  const destRead = s.read.kind === 'dir' ? await ctx.probe(destProbe(dest)) : s.read;
  const result: ModuleResult = { ...s.base, dest, src: tmp, checksum_src: s.resp.digests!.sha1 };
  const dropTmp = `rm -f -- ${quoteWord(tmp)}`;
  if (destRead.kind === 'file') result.checksum_dest = destRead.sha1;
  else if (destRead.kind === 'none' && !destRead.parentExists) {
    await act(ctx, [dropTmp], dest);
    return { ...result, failed: true, msg: `Destination ${posix.dirname(dest)} does not exist` };
  }
  if (ctx.check) {
    await act(ctx, [dropTmp], dest);
    return { ...result, changed: destRead.kind !== 'file' || result.checksum_src !== result.checksum_dest, msg: s.resp.msg, ...pathInfo(destRead) };
  }
  const replace = result.checksum_src !== result.checksum_dest;
  const d = quoteWord(dest);
  const t = quoteWord(tmp);
  // atomic_move: a replaced file keeps the old one's owner and mode; a new one gets the umask's.
  const keep = `if [ -e ${d} ]; then chown --reference=${d} -- ${t} && chmod --reference=${d} -- ${t}; else chmod -- "$(printf '%o' $((0666 & ~0$(umask))))" ${t}; fi`;
  const steps = replace ? [...(a.backup && destRead.kind === 'file' ? [backupCommand(dest)] : []), keep, `mv -f -- ${t} ${d}`] : [dropTmp];
  let after = await act(ctx, steps, dest);
  if (s.spec && s.resp.digests![s.spec.algorithm] !== s.spec.digest) {
    await act(ctx, [`rm -f -- ${d}`], dest);
    return { ...result, changed: replace, failed: true, msg: `The checksum for ${dest} did not match ${s.spec.digest}; it was ${s.resp.digests![s.spec.algorithm]}.` };
  }
  const attrs = await applyAttrs(a, ctx, dest, after);
  after = attrs.read;
  return { ...result, changed: replace || attrs.changed, md5sum: s.resp.digests!.md5, msg: s.resp.msg, status_code: s.resp.status, ...pathInfo(after) };
}
