// The shared heart of copy, template, lineinfile, ini_file, sysctl and systemd_unit: given the
// probed file and the wanted bytes, plan the smallest change - nothing, attributes only, or an
// atomic rewrite (after an optional backup) - with the old and new text for --diff.
import { dirname } from 'node:path';
import { HostwireError } from '../../errors.js';
import { quoteWord } from './shell-words.js';
import type { Change } from '../types.js';
import { planAttrs, type Attrs } from './attrs.js';
import { resolveMode } from './mode.js';
import { sameDigest, sha256Hex, skippedDiff } from './large-file.js';
import { LARGE_FILE_BYTES } from '../../probe/kinds/files.js';
import type { FileStat } from './file-stat.js';

export interface ContentWant extends Attrs {
  path: string;
  content: string | Buffer;
  /** Copy the old file to `<path>.<pid>.<timestamp>~` first (Ansible's backup: yes), reported as backup_file. */
  backup?: boolean;
  /** A command (kit/validate-command.ts) the new content must pass before it replaces the file. */
  validate?: string;
  /** mkdir -p the parent when the file is new (drop-in dirs, sysctl.d). */
  createParent?: boolean;
  /** copy/template: --diff names a side over LARGE_FILE_BYTES by size and sha256 (as Ansible skips it). */
  skipLargeDiff?: boolean;
}

/** Text for --diff; binary content is summarised rather than dumped. */
export function diffText(b: Buffer | undefined): string {
  if (!b) return '';
  return b.includes(0) ? `(binary content, ${b.length} bytes)\n` : b.toString('utf8');
}

/** The path must be a regular file (or absent) for its content to be managed. */
export function assertRegularFile(path: string, st: FileStat): void {
  if (st.exists && st.type !== 'file') {
    throw new HostwireError('bad-input', `${path} exists but is a ${st.type === 'link' ? 'symlink' : st.type}, not a regular file`);
  }
  if (st.exists && !st.content && !st.digest) throw new HostwireError('bad-input', `${path} exists but could not be read`);
}

/** The old and new text for --diff; a large side (read as a digest on the host) is named by size and sha256. */
function diffSides(st: FileStat, want: ContentWant, next: Buffer): { before: string; after: string } {
  const before = st.digest ? skippedDiff('destination', st.digest.size, st.digest.sha256) : diffText(st.content);
  const after = want.skipLargeDiff && next.length > LARGE_FILE_BYTES ? skippedDiff('source', next.length, sha256Hex(next)) : diffText(next);
  return { before, after };
}

/**
 * Ansible's backup_local: `<path>.<pid>.<YYYY-MM-DD@HH:MM:SS>~` in the host's local time, a preserving
 * copy. One brace group (it may stand in an && chain) leaving the name in $b (BACKUP_NAME prints it).
 */
export function backupCommand(path: string): string {
  const p = quoteWord(path);
  return `{ b=${p}."$$.$(date +%Y-%m-%d@%H:%M:%S)~" && cp -p -- ${p} "$b"; }`;
}

export const BACKUP_NAME = `printf '%s' "$b"`;

export function planContent(st: FileStat, wanted: ContentWant): Change[] {
  assertRegularFile(wanted.path, st);
  // A symbolic mode is computed here against the file as it is (or as it will be created).
  const want = { ...wanted, mode: resolveMode(wanted.mode, st) };
  const next = Buffer.isBuffer(want.content) ? want.content : Buffer.from(want.content, 'utf8');
  const same = st.digest ? sameDigest(st.digest, next) : st.exists && st.content!.equals(next);
  if (same) return planAttrs(want.path, st, want);
  const changes: Change[] = [];
  if (!st.exists && want.createParent) changes.push({ summary: `create directory ${dirname(want.path)}`, run: [`mkdir -p -- ${quoteWord(dirname(want.path))}`] });
  if (st.exists && want.backup) changes.push({ summary: `back up ${want.path}`, run: [backupCommand(want.path), BACKUP_NAME], reports: 'backup_file' });
  changes.push({
    summary: `${st.exists ? 'update' : 'create'} ${want.path}`,
    ...diffSides(st, want, next),
    run: [],
    write: { path: want.path, content: next, mode: want.mode, owner: want.owner, group: want.group, ...(want.validate !== undefined ? { validate: want.validate } : {}) },
  });
  return changes;
}
