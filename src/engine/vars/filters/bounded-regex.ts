// Templates' regex filters and tests match through the bounded matcher (src/bounded-regex.ts): past
// its time bound the template fails naming the pattern, instead of the run hanging.
import { allMatches as boundedAll, firstMatch as boundedFirst, RegexLimitError, type RegexMatch } from '../../../bounded-regex.js';
import { TemplateFailure } from '../undefined.js';

export { REGEX_TIME_LIMIT_MS, type RegexMatch } from '../../../bounded-regex.js';

function asTemplateFailure<T>(match: () => T): T {
  try {
    return match();
  } catch (e) {
    if (e instanceof RegexLimitError) throw new TemplateFailure(e.message);
    throw e;
  }
}

/** The first match of `re` in `input` (as RegExp.exec), or null. */
export const firstMatch = (re: RegExp, input: string): RegexMatch | null => asTemplateFailure(() => boundedFirst(re, input));

/** Every match (as String.matchAll). */
export const allMatches = (re: RegExp, input: string): RegexMatch[] => asTemplateFailure(() => boundedAll(re, input));
