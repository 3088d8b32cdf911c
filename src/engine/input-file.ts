// Every file a user hands hostwire (playbooks, inventories, vars files, -e @file, --limit @file) is
// read through here: only a regular file is read (a FIFO or /dev/zero would block or never end), and
// only up to a size no real input reaches, so a hostile input ends in a clear error, not a hang.
import { closeSync, fstatSync, openSync, readSync, constants } from 'node:fs';
import { BadInputError } from '../errors.js';

/** Far above any real playbook or inventory (a 5,000-host INI file is ~1 MB). */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

export function readInputFile(file: string, what = 'file'): string {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer must not block before the type is checked.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new BadInputError(`cannot read ${what}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { file }, err);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new BadInputError(`cannot read ${what}: it is a directory; expected a file`, { file });
    if (!st.isFile()) throw new BadInputError(`cannot read ${what}: not a regular file (a FIFO, socket or device); expected a file`, { file });
    if (st.size > MAX_INPUT_BYTES) {
      throw new BadInputError(`${what} is ${(st.size / 1048576).toFixed(1)} MB; expected at most ${MAX_INPUT_BYTES / 1048576} MB`, { file });
    }
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
