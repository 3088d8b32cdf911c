// Python's shlex.split (POSIX mode) for modprobe's params, as the module splits them onto the command
// line: whitespace separates, single quotes keep text as is, double quotes allow \" \\ \$ \`, a
// backslash outside quotes escapes the next character. Unbalanced quotes fail, as shlex raises.
import { HostwireError } from '../../errors.js';

export function pythonSplit(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) word += text[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new HostwireError('bad-input', 'No escaped character');
      word = (word ?? '') + text[++i];
    } else word = (word ?? '') + c;
  }
  if (quote) throw new HostwireError('bad-input', 'No closing quotation');
  if (word !== undefined) words.push(word);
  return words;
}
