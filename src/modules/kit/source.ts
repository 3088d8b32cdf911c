// Where a role's files and templates come from on the controller: <baseDir>/<sub>/<src> first
// (files/, templates/), then <baseDir>/<src>; absolute paths are taken as they are.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { BadInputError } from '../../errors.js';

export function findSource(baseDir: string, sub: 'files' | 'templates', src: string): string {
  const candidates = isAbsolute(src) ? [src] : [join(baseDir, sub, src), join(baseDir, src)];
  for (const c of candidates) {
    if (existsSync(c)) {
      if (statSync(c).isDirectory()) throw new BadInputError(`src ${c} is a directory: copying directories is not supported`);
      return c;
    }
  }
  throw new BadInputError(`could not find src '${src}' (looked in ${candidates.join(', ')})`);
}

export const readSource = (baseDir: string, sub: 'files' | 'templates', src: string): Buffer => readFileSync(findSource(baseDir, sub, src));
