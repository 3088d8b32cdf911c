// `hostwire run` options checked before anything is read or connected, as ansible-playbook's
// argument parser does: a value that cannot be right is refused with exit 5, never ignored.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../errors.js';

const CONNECTIONS = ['ssh', 'local'];
const HOST_KEY_POLICIES = ['strict', 'accept-new', 'off'];

/** ansible-playbook: `--forks` is an int and "must be >= 1". */
export function parseForks(value: string): number {
  if (!/^\s*\d+\s*$/.test(value)) throw new BadInputError(`--forks: expected a whole number of hosts in parallel (>= 1), got '${value}'`);
  const n = Number(value);
  if (n < 1) throw new BadInputError(`--forks: the number of hosts in parallel must be >= 1, got ${n}`);
  return n;
}

export function checkConnection(value: string | undefined): void {
  if (value !== undefined && !CONNECTIONS.includes(value)) {
    throw new BadInputError(`-c/--connection: unknown connection type '${value}'; expected ${CONNECTIONS.join(' or ')}`);
  }
}

export function checkHostKeyChecking(value: string | undefined): void {
  if (value !== undefined && !HOST_KEY_POLICIES.includes(value)) {
    throw new BadInputError(`--host-key-checking: unknown policy '${value}'; expected ${HOST_KEY_POLICIES.join(', ')}`);
  }
}

/** The report is written after the run: a path that cannot be written is found before it starts. */
export function checkReportPath(file: string | undefined): void {
  if (file === undefined) return;
  if (file === '') throw new BadInputError('--report: expected a file name, got an empty string');
  let st;
  try {
    st = statSync(file);
  } catch {
    st = undefined;
  }
  if (st?.isDirectory()) throw new BadInputError(`--report: '${file}' is a directory; expected a file name such as ${path.join(file, 'run.html')}`);
  const dir = path.dirname(path.resolve(file));
  try {
    accessSync(dir, constants.W_OK);
    if (st) accessSync(file, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new BadInputError(`--report: cannot write '${file}' (${code}); expected a writable file in an existing directory`);
  }
}
