// Pure parsing of `iptables -S CHAIN` (recorded in cases/list-chain.json).
import { splitWords } from '../shell-words.js';

export interface ListedRule {
  /** 1-based position in the chain. */
  index: number;
  /** The rule's words after `-A CHAIN`. */
  spec: string[];
  comment?: string;
}

export function parseRules(text: string, chain: string): ListedRule[] {
  const rules: ListedRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('-A ')) continue;
    const words = splitWords(line);
    if (words[1] !== chain) continue;
    const spec = words.slice(2);
    const at = spec.indexOf('--comment');
    rules.push({ index: rules.length + 1, spec, comment: at >= 0 ? spec[at + 1] : undefined });
  }
  return rules;
}
