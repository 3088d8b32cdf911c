// Where fetch puts a file on the controller, as ansible-core 2.14's fetch action computes it: flat,
// `dest` itself (or dest/<basename of src> when dest ends with '/'); otherwise
// dest/<inventory_hostname>/<src>; relative to the playbook's folder, normalised. Unlike Ansible
// 2.14 (whose traversal check compares dest with itself), a src whose `..` would leave dest is refused.
import { existsSync, statSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import { HostwireError } from '../../errors.js';

export interface DestInput {
  src: string;
  dest: string;
  flat: boolean;
  host: string;
  baseDir: string;
}

export function fetchDest(d: DestInput): string {
  const base = resolve(d.baseDir, d.dest);
  if (d.flat) {
    if (!d.dest.endsWith('/')) {
      if (existsSync(base) && statSync(base).isDirectory()) throw new HostwireError('bad-input', 'dest is an existing directory, use a trailing slash if you want to fetch src into that directory');
      return base;
    }
    return posix.join(base, posix.basename(d.src));
  }
  const root = posix.join(base, d.host);
  const dest = posix.normalize(`${root}/${d.src}`);
  if (!dest.startsWith(`${root}/`)) throw new HostwireError('bad-input', `Detected directory traversal, expected to be contained in '${root}' but got '${dest}'`);
  return dest;
}
