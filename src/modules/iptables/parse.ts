// Pure parsing of `iptables -S CHAIN` (recorded in cases/list-chain.json and cases/list-hostile.json).
// iptables quotes only whole arguments (a comment: "say \"hi\"", \" and \\ escaped, newlines kept raw)
// and prints chain names raw (`-A h6"c -j RETURN`): a quote opens a quoted word only at a word's start,
// and a quoted word may span lines. A rule that still cannot be read is named, never skipped.
import { ProbeParseError } from '../../errors.js';

export interface ListedRule {
  /** 1-based position in the chain. */
  index: number;
  /** The rule's words after `-A CHAIN`. */
  spec: string[];
  comment?: string;
}

/** Reads a quoted word starting after the opening quote at `i`; returns the word and the index after the closing quote. */
function quoted(text: string, i: number): { word: string; next: number } | undefined {
  let word = '';
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
    else if (c === '"') return { word, next: i + 1 };
    else word += c;
  }
  return undefined;
}

/** `iptables -S` text -> one word list per rule line (`-N`, `-P`, `-A`), with the line it starts on. */
export function splitSaveLines(text: string, what: string): { words: string[]; line: number }[] {
  const rules: { words: string[]; line: number }[] = [];
  let words: string[] = [];
  let cur: string | undefined;
  let line = 1;
  let start = 1;
  const endWord = () => (cur !== undefined && words.push(cur), (cur = undefined));
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || c === ' ' || c === '\t') {
      endWord();
      if (c === '\n') (words.length && rules.push({ words, line: start }), (words = []), (start = ++line));
    } else if (c === '"' && cur === undefined) {
      const q = quoted(text, i + 1);
      const after = q ? text[q.next] : undefined;
      if (!q || (after !== undefined && !' \t\n'.includes(after))) {
        const raw = text.slice(text.lastIndexOf('\n', i) + 1).split('\n')[0];
        throw new ProbeParseError(`${what}: the rule on line ${start} is unreadable (a quote that does not close as iptables quotes): ${JSON.stringify(raw)}`, text);
      }
      line += q.word.split('\n').length - 1;
      words.push(q.word);
      i = q.next - 1;
    } else cur = (cur ?? '') + c;
  }
  endWord();
  if (words.length) rules.push({ words, line: start });
  return rules;
}

export function parseRules(text: string, chain: string): ListedRule[] {
  const rules: ListedRule[] = [];
  for (const { words } of splitSaveLines(text, `iptables -S ${chain}`)) {
    if (words[0] !== '-A' || words[1] !== chain) continue;
    const spec = words.slice(2);
    const at = spec.indexOf('--comment');
    rules.push({ index: rules.length + 1, spec, comment: at >= 0 ? spec[at + 1] : undefined });
  }
  return rules;
}
