// Ansible's `module: key=value key2="quoted value"` shorthand.
import { BadInputError, type SourceLoc } from '../../errors.js';

/**
 * Where a value that starts at `pos` ends: at whitespace outside quotes and outside Jinja blocks, whose
 * {{ {% {# openings are counted as Ansible's split_args counts them - so a block nesting a quoted
 * '{{ x }}' (openshift-ansible: lookup('env', '{{c}}' + '_crt')) stays one value.
 */
function valueEnd(text: string, pos: number): number {
  let depth = 0;
  let quote: string | undefined;
  let i = pos;
  while (i < text.length) {
    const c = text[i]!;
    const two = text.slice(i, i + 2);
    if (quote && depth === 0) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      i++;
      continue;
    }
    if (two === '{{' || two === '{%' || two === '{#') { depth++; i += 2; continue; }
    if (depth > 0 && (two === '}}' || two === '%}' || two === '#}')) { depth--; i += 2; continue; }
    if (depth === 0 && (c === '"' || c === "'")) quote = c;
    else if (depth === 0 && /\s/.test(c)) break;
    i++;
  }
  return i;
}

export function parseKeyValueArgs(text: string, loc?: SourceLoc): Record<string, string> {
  const out: Record<string, string> = {};
  const key = /\s*([A-Za-z_][\w.-]*)=/y; // a key may hold "-" (systemd: daemon-reload=yes)
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) break;
    key.lastIndex = pos;
    const m = key.exec(text);
    const end = m ? valueEnd(text, key.lastIndex) : -1;
    if (!m || end === key.lastIndex) throw new BadInputError(`expected key=value arguments, got '${text.slice(pos).trim()}'`, loc);
    let v = text.slice(key.lastIndex, end);
    if (v.length > 1 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    out[m[1]!] = v;
    pos = end;
  }
  return out;
}

/** command/shell free form: trailing `creates=` / `chdir=` style options are split off like Ansible does. */
export function splitFreeForm(text: string): { raw: string; options: Record<string, string> } {
  const options: Record<string, string> = {};
  const known = ['creates', 'removes', 'chdir', 'executable', 'stdin', 'warn'];
  const words = text.split(/\s+/);
  const rest: string[] = [];
  for (const w of words) {
    const m = /^(\w+)=(.*)$/.exec(w);
    if (m && known.includes(m[1])) options[m[1]] = m[2];
    else rest.push(w);
  }
  return { raw: Object.keys(options).length ? rest.join(' ') : text, options };
}
