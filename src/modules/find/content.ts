// find.py's contentfilter: the file opened as text (UTF-8, universal newlines), then either a search
// of the whole text or a match at the start of any line (the line keeps its newline); a file that
// cannot be read or decoded does not match (the lines decoded before a bad byte still count).
import { pyPattern } from '../kit/py-regex.js';
import { pyMatch } from './walk.js';

function decodeText(content: Buffer): { text: string; complete: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(content), complete: true };
  } catch {
    let end = content.length;
    // The longest prefix that decodes: lines before the bad byte were read before Python met it.
    for (;;) {
      end = content.lastIndexOf(0x0a, end - 1);
      if (end < 0) return { text: '', complete: false };
      try {
        return { text: new TextDecoder('utf-8', { fatal: true }).decode(content.subarray(0, end + 1)), complete: false };
      } catch {
        continue;
      }
    }
  }
}

export function contentMatches(content: Buffer | undefined, pattern: string, wholeFile: boolean): boolean {
  if (content === undefined) return false;
  const { text: raw, complete } = decodeText(content);
  const text = raw.replace(/\r\n?/g, '\n');
  if (wholeFile) return complete && pyPattern(pattern).re.test(text);
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return lines.some((line) => pyMatch(pattern, line));
}
