// fetch: a file from the host onto the controller (ansible.builtin.fetch, ansible-core 2.14's action:
// src, dest, flat, fail_on_missing, validate_checksum; its results and messages; skipped under --check
// as Ansible's). The host's file is read in the play's batched read (base64, symlinks followed); the
// controller's copy is written only when its sha1 differs, atomically (a 0644 temp file renamed).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Module, ModuleContext, ModuleResult } from '../types.js';
import { ansibleBool } from '../kit/ansible-args.js';
import { contentProbe } from '../kit/content-read.js';
import { fetchDest } from './dest.js';
import { fetchDoc } from './doc.js';

const fetchArgs = z
  .object({
    src: z.string().min(1),
    dest: z.string().min(1),
    flat: ansibleBool.default(false),
    fail_on_missing: ansibleBool.default(true),
    validate_checksum: ansibleBool.default(true),
  })
  .strict();

export type FetchArgs = z.infer<typeof fetchArgs>;

const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

function writeAtomically(dest: string, data: Buffer): void {
  mkdirSync(dirname(dest), { recursive: true });
  const tmp = `${dest}.hostwire-${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o644, flag: 'wx' });
    renameSync(tmp, dest);
  } finally {
    rmSync(tmp, { force: true });
  }
}

async function runFetch(a: FetchArgs, ctx: ModuleContext): Promise<ModuleResult> {
  const read = await ctx.probe(contentProbe(a.src));
  if ('msg' in read) {
    // fetch.py's own words for slurp's failures (it says "ignored" even when it fails).
    const msg = /^file not found/.test(read.msg) ? 'the remote file does not exist, not transferring, ignored' : /^source is a directory/.test(read.msg) ? 'remote file is a directory, fetch cannot work on directories' : read.msg;
    return a.fail_on_missing ? { changed: false, failed: true, msg } : { changed: false, file: a.src, msg };
  }
  const data = Buffer.from(read.content, 'base64');
  const remoteChecksum = sha1(data);
  const host = typeof ctx.vars.inventory_hostname === 'string' ? ctx.vars.inventory_hostname : ctx.host;
  const dest = fetchDest({ src: a.src, dest: a.dest, flat: a.flat, host, baseDir: ctx.baseDir });
  const local = existsSync(dest) ? readFileSync(dest) : undefined;
  if (local !== undefined && sha1(local) === remoteChecksum) return { changed: false, md5sum: md5(local), file: a.src, dest, checksum: remoteChecksum };
  writeAtomically(dest, data);
  const written = readFileSync(dest);
  const checksum = sha1(written);
  if (a.validate_checksum && checksum !== remoteChecksum) {
    return { changed: false, failed: true, md5sum: md5(written), msg: 'checksum mismatch', file: a.src, dest, remote_md5sum: null, checksum, remote_checksum: remoteChecksum };
  }
  return { changed: true, md5sum: md5(written), dest, remote_md5sum: null, checksum, remote_checksum: remoteChecksum };
}

export const fetchModule: Module<FetchArgs> = {
  name: 'fetch',
  doc: fetchDoc,
  args: fetchArgs,
  environment: 'irrelevant',
  skipsInCheck: true,
  checkSkipped: () => ({ changed: false, skipped: true, msg: 'check mode not (yet) supported for this module' }),
  run: runFetch,
  readsAhead: (a) => [contentProbe(a.src)],
};
