// Large files are compared by size and sha256 on the host instead of being shipped back: reading
// a 40 MB file into the probe batch cost seconds (its base64 through the first read), and its
// diff would not be shown anyway. The bound is Ansible's max_file_size_for_diff default.
import { createHash } from 'node:crypto';
import { LARGE_FILE_BYTES } from '../../probe/kinds/files.js';


export interface FileDigest {
  size: number;
  sha256: string;
}

/** `digest:<size>:<sha256>` as the probe prints it (sha256sum's `  -` tail allowed). */
export function parseDigestLine(line: string): FileDigest | undefined {
  const m = /^digest:(\d+):([0-9a-f]{64})\b/.exec(line);
  return m ? { size: Number(m[1]), sha256: m[2] } : undefined;
}

export const sha256Hex = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

export const sameDigest = (d: FileDigest, b: Buffer): boolean => d.size === b.length && d.sha256 === sha256Hex(b);

/** The --diff text of content that is not shown, in Ansible's words. */
export const skippedDiff = (side: 'source' | 'destination', size: number, sha256: string): string =>
  `diff skipped: ${side} file size is greater than ${LARGE_FILE_BYTES} (${size} bytes, sha256 ${sha256})\n`;
