// setup's `filter` (ansible-core 2.14 module_utils/facts/ansible_collector.py _filter): shell-style
// patterns (Python's fnmatch: * ? [seq] [!seq], case-sensitive on POSIX) matched against each
// top-level fact name; a pattern not starting with ansible_/facter/ohai also matches with ansible_
// in front. No pattern (or '*') keeps everything.
import { setOwn } from '../../own-keys.js';

/** Python's fnmatch.translate, for the subset it supports. */
export function fnmatchRegex(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const close = pattern.indexOf(']', pattern[i + 1] === '!' ? i + 3 : i + 2);
      if (close < 0) { out += '\\['; continue; }
      let body = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
      if (body.startsWith('!')) body = '^' + body.slice(1);
      else if (body.startsWith('^')) body = '\\' + body;
      out += `[${body}]`;
      i = close;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^(?:${out})$`, 's');
}

export function filterFacts(facts: Record<string, unknown>, patterns: string[]): Record<string, unknown> {
  if (patterns.length === 0 || (patterns.length === 1 && patterns[0] === '*')) return facts;
  const out: Record<string, unknown> = {};
  for (const p of patterns) {
    const direct = fnmatchRegex(p);
    const prefixed = p && !/^(ansible_|facter|ohai)/.test(p) ? fnmatchRegex(`ansible_${p}`) : undefined;
    for (const [k, v] of Object.entries(facts)) {
      if (!p || direct.test(k) || prefixed?.test(k)) setOwn(out, k, v);
    }
  }
  return out;
}
