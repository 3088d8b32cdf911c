// Ansible's `module: key=value key2="quoted value"` shorthand.
import { BadInputError, type SourceLoc } from '../../errors.js';

export function parseKeyValueArgs(text: string, loc?: SourceLoc): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /\s*([A-Za-z_][\w.]*)=("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|(?:\{\{.*?\}\}|[^\s])+)/gy;
  let pos = 0;
  while (pos < text.length) {
    if (/^\s*$/.test(text.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new BadInputError(`expected key=value arguments, got '${text.slice(pos).trim()}'`, loc);
    let v = m[2];
    if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    out[m[1]] = v;
    pos = re.lastIndex;
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
