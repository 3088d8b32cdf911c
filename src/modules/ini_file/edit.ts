// Pure INI editing with Ansible's ini_file rules, keeping every other line (comments included).
// section null means the lines before the first [section] header: the shape of /etc/default/*
// and /etc/sysconfig/* files (use no_extra_spaces there so the file stays valid shell).
import { joinLines, splitLines } from '../kit/lines.js';

export interface IniEdit {
  section: string | null;
  option?: string;
  value?: string;
  state: 'present' | 'absent';
  noExtraSpaces: boolean;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HEADER = /^\s*\[([^\]]*)\]/;

/** Active `option = value` / `option` line; a commented one (# or ;) when `commented`. */
function optionRe(option: string, commented: boolean): RegExp {
  return new RegExp(`^[ \\t]*${commented ? '[#;][ \\t]*' : ''}${esc(option)}[ \\t]*(=|$)[ \\t]*(.*)$`);
}

/** [start, end) line range of the section's body; start = -1 when the section is missing. */
function sectionRange(lines: string[], section: string | null): { header: number; start: number; end: number } {
  if (section === null) {
    const end = lines.findIndex((l) => HEADER.test(l));
    return { header: -1, start: 0, end: end < 0 ? lines.length : end };
  }
  const header = lines.findIndex((l) => HEADER.exec(l)?.[1].trim() === section);
  if (header < 0) return { header: -1, start: -1, end: -1 };
  let end = lines.findIndex((l, i) => i > header && HEADER.test(l));
  if (end < 0) end = lines.length;
  return { header, start: header + 1, end };
}

/** Returns the new text (=== old text when nothing changes). */
export function editIni(text: string, e: IniEdit): string {
  const { lines, finalNewline } = splitLines(text);
  const r = sectionRange(lines, e.section);
  const assignment = e.value === undefined ? e.option! : e.noExtraSpaces ? `${e.option}=${e.value}` : `${e.option} = ${e.value}`;
  if (e.state === 'absent') {
    if (r.start < 0) return text;
    if (e.option === undefined) {
      if (e.section === null) return text;
      lines.splice(r.header, r.end - r.header);
      return joinLines(lines, finalNewline);
    }
    const re = optionRe(e.option, false);
    const body = lines.slice(r.start, r.end).filter((l) => {
      const m = re.exec(l);
      return !m || (e.value !== undefined && m[2].trim() !== e.value);
    });
    if (body.length === r.end - r.start) return text;
    lines.splice(r.start, r.end - r.start, ...body);
    return joinLines(lines, finalNewline);
  }
  if (r.start < 0) {
    // A new section goes at the end of the file.
    lines.push(`[${e.section}]`);
    if (e.option !== undefined) lines.push(assignment);
    return joinLines(lines, true);
  }
  if (e.option === undefined) return text;
  const active = optionRe(e.option, false);
  const body = lines.slice(r.start, r.end);
  let at = body.findIndex((l) => active.test(l));
  if (at < 0) at = body.findIndex((l) => optionRe(e.option!, true).test(l));
  if (at >= 0) {
    body[at] = assignment;
    // One value per option: later active duplicates go.
    const rest = body.filter((l, i) => i <= at || !active.test(l));
    lines.splice(r.start, r.end - r.start, ...rest);
  } else {
    // After the section's last non-blank line, so a blank line before the next header stays.
    let last = body.length;
    while (last > 0 && body[last - 1].trim() === '') last--;
    lines.splice(r.start + last, 0, assignment);
  }
  const next = joinLines(lines, finalNewline || r.end === lines.length - 1);
  return next === text ? text : next;
}
