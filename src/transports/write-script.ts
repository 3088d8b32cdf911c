// The shell side of a verified atomic file write, shared by every module that writes a file
// (copy, template, lineinfile, ini_file, sysctl, systemd_unit, nm_connection, ovs_gateway...):
// stdin goes to a fresh 0600 temp file with a random name in the target's directory, its size
// and sha256 are checked against what the controller meant to send, mode/owner are set on it,
// and only then `mv -f` renames it over the target. A dropped connection ends stdin early and
// `cat` exits 0 on that EOF, so without the check a killed controller installed a truncated
// file; now the target is always either the old or the new file. The temp file is removed on any
// failure, and temps left by a write that was itself killed are removed by the next write.
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { BadInputError } from '../errors.js';
import { shellQuote } from './quote.js';
import type { WriteFileOptions } from './transport.js';

const TEMP_MARK = '.hostwire-';
const RANDOM_HEX = 12;
// Keeps `.<name>.hostwire-<12 hex>.tmp` under NAME_MAX (255) for long names.
const NAME_KEEP = 200;

const tempPrefix = (path: string) => `${dirname(path)}/.${basename(path).slice(0, NAME_KEEP)}${TEMP_MARK}`;

export function tempPathFor(path: string): string {
  return `${tempPrefix(path)}${randomBytes(RANDOM_HEX / 2).toString('hex')}.tmp`;
}

/** True when `name` (in the directory of `path`) is a temp name tempPathFor gives `path`. */
export function isTempNameOf(path: string, name: string): boolean {
  const prefix = tempPrefix(path).slice(dirname(path).length + 1);
  return name.startsWith(prefix) && new RegExp(`^[0-9a-f]{${RANDOM_HEX}}\\.tmp$`).test(name.slice(prefix.length));
}

/** A glob matching exactly the temp names tempPathFor gives this path (literal parts quoted). */
function staleTempGlob(path: string): string {
  return `${shellQuote(tempPrefix(path))}${'[0-9a-f]'.repeat(RANDOM_HEX)}.tmp`;
}

export function validateMode(mode: string): string {
  if (!/^0?[0-7]{3,4}$/.test(mode)) throw new BadInputError(`invalid file mode ${JSON.stringify(mode)}: expected an octal string like '0644'`);
  return mode;
}

// A user or group as useradd/groupadd accept it (NAME_REGEX, with the trailing '$' of machine
// accounts), or a numeric id. Anything else - '--reference=/etc/shadow', 'a:b', spaces - is refused
// before it reaches chown.
const ID_NAME = /^(?:[a-z_][a-z0-9_-]*\$?|[0-9]+)$/i;

export const isValidAccount = (value: string): boolean => value.length <= 32 && ID_NAME.test(value);

/** Throws a BadInputError naming `what` unless `value` is a valid user/group name or numeric id. */
export function validateAccount(what: 'owner' | 'group', value: string): string {
  if (!isValidAccount(value)) {
    throw new BadInputError(`invalid ${what} ${JSON.stringify(value)}: expected a ${what === 'owner' ? 'user' : 'group'} name (letters, digits, '_', '-', not starting with '-') or a numeric id`);
  }
  return value;
}

/** The `owner[:group]` operand of chown, validated; undefined when neither is set. */
export function chownSpec(owner?: string, group?: string): string | undefined {
  if (owner === undefined && group === undefined) return undefined;
  return `${owner === undefined ? '' : validateAccount('owner', owner)}${group === undefined ? '' : `:${validateAccount('group', group)}`}`;
}

/** The size and sha256 the host must find in the temp file before installing it. */
export function contentDigest(content: string | Buffer): { size: number; sha256: string } {
  const b = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return { size: b.length, sha256: createHash('sha256').update(b).digest('hex') };
}

/**
 * Script reading the new content on stdin; `content` is what will be sent (only its size and
 * hash go into the script). Without `mode`, keeps the existing file's mode (or the umask default).
 */
export function buildWriteScript(path: string, content: string | Buffer, opts: WriteFileOptions = {}, tmp = tempPathFor(path)): string {
  const { size, sha256 } = contentDigest(content);
  const owner = chownSpec(opts.owner, opts.group);
  const lines = [
    'set -e',
    `p=${shellQuote(path)}; t=${shellQuote(tmp)}`,
    // No rm fork on the normal path: the temp is gone after the mv.
    `trap 'if [ -e "$t" ] || [ -L "$t" ]; then rm -f -- "$t"; fi' EXIT`,
    // Temps of this file left by a killed write (its shell died before its trap); the run lock keeps other runs out.
    `for s in ${staleTempGlob(path)}; do if [ -f "$s" ] && [ "$s" != "$t" ]; then rm -f -- "$s"; fi; done`,
  ];
  if (opts.mode) lines.push(`m=${validateMode(opts.mode)}`);
  else {
    lines.push('m=$(printf %o $((0666 & ~$(umask))))');
    lines.push('if [ -e "$p" ]; then m=$(stat -c %a -- "$p"); fi');
  }
  lines.push(
    // 0600, and noclobber: never write through something already standing at the temp name.
    'umask 077', 'set -C', 'cat > "$t"', 'set +C',
    `n=$(wc -c < "$t"); if [ "$n" -ne ${size} ]; then echo "hostwire: incomplete upload of $p: $n of ${size} bytes arrived; the file was left unchanged" >&2; exit 75; fi`,
    `h=$(sha256sum < "$t"); if [ "\${h%% *}" != ${sha256} ]; then echo "hostwire: upload of $p does not match its sha256 (${sha256}); the file was left unchanged" >&2; exit 75; fi`,
    'chmod "$m" -- "$t"',
  );
  if (owner !== undefined) lines.push(`chown -- ${shellQuote(owner)} "$t"`);
  // Keep the old owner when we can (as root); otherwise the writer owns the new file.
  else lines.push('if [ -e "$p" ] && [ "$(id -u)" = 0 ]; then chown --reference="$p" -- "$t"; fi');
  // The new content is checked where it lies, with its final attributes, before it replaces anything.
  if (opts.validate !== undefined) lines.push(`${opts.validate} >&2 || { r=$?; echo "hostwire: failed to validate the new $p (exit status $r); the file was left unchanged" >&2; exit 76; }`);
  lines.push('mv -f -- "$t" "$p"');
  return lines.join('\n');
}
