// Pure line editing with Ansible's lineinfile rules: the last line matching `regexp` is replaced;
// when nothing matches but the exact line is already there, nothing changes; otherwise the line is
// inserted after the last `insertafter` match / before the last `insertbefore` match (the first with
// firstmatch), at EOF when that anchor is not found. state absent drops every matching line.

import { joinLines, splitLines } from '../kit/lines.js';

export interface LineEdit {
  line?: string;
  regexp?: string;
  state: 'present' | 'absent';
  insertafter?: string;
  insertbefore?: string;
  firstmatch?: boolean;
  /** Expand \1, \g<name> from the regexp match into `line`; no match means no change. */
  backrefs?: boolean;
}

/** Python regex syntax that differs from JavaScript's: named groups and their back references. */
export function pyRegex(re: string): RegExp {
  return new RegExp(re.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>'));
}

function expand(template: string, m: RegExpExecArray): string {
  return template.replace(/\\(?:(\d{1,2})|g<(\w+)>)/g, (_s, n: string | undefined, name: string | undefined) => {
    const v = n !== undefined ? m[Number(n)] : /^\d+$/.test(name!) ? m[Number(name)] : m.groups?.[name!];
    return v ?? '';
  });
}


/** Returns the new text (=== old text when nothing changes). */
export function editLines(text: string, e: LineEdit): string {
  const { lines, finalNewline } = splitLines(text);
  const bare = (l: string) => l.replace(/\r$/, '');
  const re = e.regexp !== undefined ? pyRegex(e.regexp) : undefined;
  const matches = (l: string) => (re ? re.test(l) : bare(l) === e.line);
  if (e.state === 'absent') {
    const kept = lines.filter((l) => !matches(l));
    return kept.length === lines.length ? text : joinLines(kept, finalNewline);
  }
  const line = e.line!;
  const anchor = e.insertafter ?? e.insertbefore;
  const insRe = anchor !== undefined && anchor !== 'EOF' && anchor !== 'BOF' ? pyRegex(anchor) : undefined;
  let found = -1;
  let m: RegExpExecArray | null = null;
  let ins = -1;
  lines.forEach((l, i) => {
    const hit = re ? re.exec(l) : bare(l) === line ? ([] as unknown as RegExpExecArray) : null;
    if (hit) {
      found = i;
      m = hit;
    } else if (insRe && insRe.test(l) && !(e.firstmatch && ins >= 0)) {
      ins = e.insertafter !== undefined ? i + 1 : i;
    }
  });
  if (found >= 0) {
    const next = e.backrefs ? expand(line, m!) : line;
    if (bare(lines[found]) === next) return text;
    lines[found] = next;
    return joinLines(lines, finalNewline);
  }
  if (e.backrefs) return text;
  if (re && lines.some((l) => bare(l) === line)) return text;
  let at = lines.length;
  if (e.insertbefore === 'BOF') at = 0;
  else if (ins >= 0) at = ins;
  lines.splice(at, 0, line);
  return joinLines(lines, at === lines.length - 1 ? true : finalNewline);
}
