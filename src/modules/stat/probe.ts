// stat's read: one inline shell snippet (batched with the play's other reads) printing `key:value`
// lines that parse.ts turns into Ansible's `stat` dictionary. What the host says that is free text
// (a symlink's target, its resolved path) travels base64-encoded, so no name can forge a line.
import { inlineProbe } from '../../probe/batch.js';
import { quoteWord } from '../kit/shell-words.js';

export const CHECKSUM_TOOLS = { md5: 'md5sum', sha1: 'sha1sum', sha224: 'sha224sum', sha256: 'sha256sum', sha384: 'sha384sum', sha512: 'sha512sum' } as const;
export type ChecksumAlgorithm = keyof typeof CHECKSUM_TOOLS;

export interface StatRequest {
  path: string;
  follow: boolean;
  checksum?: ChecksumAlgorithm;
  md5: boolean;
  mime: boolean;
  attributes: boolean;
}

// %f raw mode (hex), ids, size, inode, device, links, times with nanoseconds, 512-byte blocks,
// I/O block size, device major/minor (hex); the account names on lines of their own.
const FORMAT = "stat:%f|%u|%g|%s|%i|%d|%h|%.9X|%.9Y|%.9Z|%b|%o|%t|%T\\nuser:%U\\ngroup:%G\\n";

/** The shell read of one path (read-only; sets only $f, $s and $a). */
export function statCommand(r: StatRequest): string {
  const L = r.follow ? '-L ' : '';
  // A regular file that is readable: with follow off, a symlink is not one (Ansible reads lstat).
  const regular = `${r.follow ? '' : '[ ! -L "$f" ] && '}[ -f "$f" ] && [ -r "$f" ]`;
  const parts = [
    `f=${quoteWord(r.path)}`,
    `if s=$(LC_ALL=C stat ${L}--printf '${FORMAT}' -- "$f" 2>&1); then printf '%s\\n' "$s"`,
    `printf 'access:'; if [ -r "$f" ]; then printf r; fi; if [ -w "$f" ]; then printf w; fi; if [ -x "$f" ]; then printf x; fi; echo`,
  ];
  if (!r.follow) {
    parts.push(`if [ -L "$f" ]; then printf 'target:'; readlink -z -- "$f" | base64 -w0; printf '\\nsource:'; realpath -zm -- "$f" | base64 -w0; echo; fi`);
  }
  if (r.md5) parts.push(`if ${regular}; then printf 'md5:'; md5sum < "$f"; fi`);
  if (r.checksum) parts.push(`if ${regular}; then printf 'checksum:'; ${CHECKSUM_TOOLS[r.checksum]} < "$f"; fi`);
  if (r.mime) parts.push(`if command -v file >/dev/null 2>&1; then printf 'mime:'; file -b --mime-type --mime-encoding -- "$f" 2>/dev/null | base64 -w0; echo; fi`);
  // lsattr prints `version flags path`: only its first two words are read.
  if (r.attributes) parts.push(`if command -v lsattr >/dev/null 2>&1 && a=$(lsattr -vd -- "$f" 2>/dev/null); then printf 'attr:'; printf '%s' "$a" | base64 -w0; echo; fi`);
  return inlineProbe(`{ ${parts.join('; ')}; else printf 'error:%s\\n' "\${s##*: }"; fi; }`);
}
