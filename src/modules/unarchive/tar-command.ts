// The tar command lines, word for word as ansible-core 2.14's TgzArchive builds them (--list, --diff,
// --extract with -C dest, the handler's compression flag, --show-transformed-names before extra_opts,
// --owner/--group, --keep-newer-files, --exclude=, -f src, then include) - each word quoted here.
import { quoteWord } from '../kit/shell-words.js';
import type { UnarchiveArgs } from './args.js';

/** Ansible's handlers in pick_handler's order (zip's need unzip: not supported natively). */
export const HANDLERS = [
  { name: 'TgzArchive', flag: '-z' },
  { name: 'TarArchive', flag: '' },
  { name: 'TarBzipArchive', flag: '-j' },
  { name: 'TarXzArchive', flag: '-J' },
  { name: 'TarZstdArchive', flag: '--use-compress-program=zstd' },
] as const;

export type HandlerName = (typeof HANDLERS)[number]['name'];

export const flagOf = (h: HandlerName): string => HANDLERS.find((x) => x.name === h)!.flag;

/** The words after `tar --<action>` (src as given: a shell word such as "$src" or a quoted path). */
export function tarWords(action: 'list' | 'diff' | 'extract', a: UnarchiveArgs, flag: string, src: string): string[] {
  const w = [`--${action}`, '-C', quoteWord(a.dest)];
  if (flag) w.push(quoteWord(flag));
  if (a.extra_opts.length) w.push('--show-transformed-names', ...a.extra_opts.map(quoteWord));
  if (action !== 'list') {
    if (a.owner !== undefined) w.push(quoteWord(`--owner=${a.owner}`));
    if (a.group !== undefined) w.push(quoteWord(`--group=${a.group}`));
    if (a.keep_newer) w.push('--keep-newer-files');
  }
  w.push(...a.exclude.map((e) => quoteWord(`--exclude=${e.replace(/\/+$/, '')}`)));
  w.push('-f', src, ...a.include.map(quoteWord));
  return w;
}

/** The words Ansible reports in extract_results.cmd. */
export function reportedCommand(a: UnarchiveArgs, flag: string, src: string): string[] {
  const w = ['/usr/bin/tar', '--extract', '-C', a.dest];
  if (flag) w.push(flag);
  if (a.extra_opts.length) w.push('--show-transformed-names', ...a.extra_opts);
  if (a.owner !== undefined) w.push(`--owner=${a.owner}`);
  if (a.group !== undefined) w.push(`--group=${a.group}`);
  if (a.keep_newer) w.push('--keep-newer-files');
  w.push(...a.exclude.map((e) => `--exclude=${e.replace(/\/+$/, '')}`), '-f', src, ...a.include);
  return w;
}
