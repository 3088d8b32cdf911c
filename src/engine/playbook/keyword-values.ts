// Boolean keywords as Ansible reads them (check_mode, become...): its strict boolean words, or a
// template kept for the run ("{{ dry_run }}"), rendered per host where the keyword applies.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { isTemplated } from '../vars/index.js';

const TRUE_WORDS = new Set(['y', 'yes', 'on', '1', 'true', 't']);
const FALSE_WORDS = new Set(['n', 'no', 'off', '0', 'false', 'f']);

/** Ansible's `boolean(value, strict=True)`: anything else is an error naming the keyword. */
export function strictBoolean(value: unknown, keyword: string, loc?: SourceLoc): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const w = value.trim().toLowerCase();
    if (TRUE_WORDS.has(w)) return true;
    if (FALSE_WORDS.has(w)) return false;
  }
  throw new BadInputError(`${keyword}: expected a boolean (true/false, yes/no) or a template, got ${JSON.stringify(value)}`, loc);
}

/** `connection:` on a play, block or task: local, or one of the names Ansible gives its SSH plugins. */
export function connectionKeyword(value: unknown, loc?: SourceLoc): 'ssh' | 'local' | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'local') return 'local';
  if (value === 'ssh' || value === 'smart' || value === 'paramiko') return 'ssh';
  throw new BadInputError(`connection: ${JSON.stringify(value)} is not supported (expected local or ssh)`, loc);
}

/** A boolean keyword checked at load time; a template string stays for the run. */
export function keywordBoolean(value: unknown, keyword: string, loc?: SourceLoc): boolean | string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && isTemplated(value)) return value;
  return strictBoolean(value, keyword, loc);
}
