// replace's edit as ansible-core 2.14's replace.py makes it: `after`/`before` bound the section
// (`after(?P<subsection>.*?)before` with DOTALL, first match), then every match of `regexp` (MULTILINE)
// in the section is substituted with Python's template rules. Matching runs time-bounded: the file
// comes from the host, and a pattern with nested repetition must not hang the run on it.
import { allMatches, firstMatch, RegexLimitError } from '../../bounded-regex.js';
import { HostwireError } from '../../errors.js';
import { expandTemplate, pyPattern } from '../kit/py-regex.js';

export interface ReplaceEdit {
  regexp: string;
  replace: string;
  after?: string;
  before?: string;
}

export type ReplaceOutcome =
  | { kind: 'replaced'; text: string; count: number }
  | { kind: 'unchanged' }
  | { kind: 'no-section'; msg: string };

function bounded<T>(path: string, match: () => T): T {
  try {
    return match();
  } catch (e) {
    if (e instanceof RegexLimitError || e instanceof SyntaxError) throw new HostwireError('bad-input', `replace in ${path}: ${e.message}`);
    throw e;
  }
}

/** The section replace.py edits: [start, end) of the subsection, or the reason it found none. */
function section(text: string, e: ReplaceEdit, path: string): [number, number] | string {
  const pattern = e.after && e.before ? `${e.after}(?P<subsection>.*?)${e.before}` : e.after ? `${e.after}(?P<subsection>.*)` : e.before ? `(?P<subsection>.*)${e.before}` : '';
  if (pattern === '') return [0, text.length];
  const m = bounded(path, () => firstMatch(pyPattern(pattern, { dotall: true, indices: true }).re, text));
  const span = m?.spans?.subsection;
  if (!span) return `Pattern for before/after params did not match the given file: ${pattern}`;
  return span;
}

export function replaceText(text: string, e: ReplaceEdit, path: string): ReplaceOutcome {
  const span = section(text, e, path);
  if (typeof span === 'string') return { kind: 'no-section', msg: span };
  const [start, end] = span;
  const part = text.slice(start, end);
  const matches = bounded(path, () => allMatches(pyPattern(e.regexp, { multiline: true, global: true }).re, part));
  let out = '';
  let last = 0;
  for (const m of matches) {
    out += part.slice(last, m.index) + bounded(path, () => expandTemplate(e.replace, m));
    last = m.index + m[0]!.length;
  }
  out += part.slice(last);
  if (matches.length === 0 || out === part) return { kind: 'unchanged' };
  return { kind: 'replaced', text: text.slice(0, start) + out + text.slice(end), count: matches.length };
}
