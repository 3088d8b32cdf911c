// The shell side of an atomic file write: stdin goes to a temp file in the target's directory,
// mode/owner are set on the temp file, then `mv -f` renames it over the target, so a reader sees
// either the old or the new file, never a partial one. The temp file is removed on any failure.
import { randomBytes } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { BadInputError } from '../engine/errors.js';
import { shellQuote } from './quote.js';
import type { WriteFileOptions } from './transport.js';

export function tempPathFor(path: string): string {
  return `${dirname(path)}/.${basename(path)}.hostwire-${randomBytes(6).toString('hex')}.tmp`;
}

export function validateMode(mode: string): string {
  if (!/^0?[0-7]{3,4}$/.test(mode)) throw new BadInputError(`invalid file mode ${JSON.stringify(mode)}: expected an octal string like '0644'`);
  return mode;
}

/** Script reading the new content on stdin. Without `mode`, keeps the existing file's mode (or umask default). */
export function buildWriteScript(path: string, opts: WriteFileOptions = {}, tmp = tempPathFor(path)): string {
  const lines = [
    'set -e',
    `p=${shellQuote(path)}; t=${shellQuote(tmp)}`,
    `trap 'rm -f "$t"' EXIT`,
  ];
  if (opts.mode) lines.push(`m=${validateMode(opts.mode)}`);
  else {
    lines.push('m=$(printf %o $((0666 & ~$(umask))))');
    lines.push('if [ -e "$p" ]; then m=$(stat -c %a "$p"); fi');
  }
  lines.push('umask 077', 'cat > "$t"', 'chmod "$m" "$t"');
  if (opts.owner || opts.group) {
    lines.push(`chown ${shellQuote(`${opts.owner ?? ''}${opts.group ? `:${opts.group}` : ''}`)} "$t"`);
  } else {
    // Keep the old owner when we can (as root); otherwise the writer owns the new file.
    lines.push('if [ -e "$p" ] && [ "$(id -u)" = 0 ]; then chown --reference="$p" "$t"; fi');
  }
  lines.push('mv -f "$t" "$p"');
  return lines.join('\n');
}
