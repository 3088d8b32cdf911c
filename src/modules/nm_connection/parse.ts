// Pure parsers for nmcli's terse output. Terse (-t) and -g values escape ':' as '\:' and '\' as '\\'
// (with -e yes); multiline `-f all connection show <name>` prints `setting.property:raw value`.
import { ProbeParseError } from '../../engine/errors.js';

/** Split one terse line into fields at unescaped ':' and unescape each field. */
export function splitTerse(line: string): string[] {
  const fields: string[] = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && i + 1 < line.length) cur += line[++i];
    else if (c === ':') (fields.push(cur), (cur = ''));
    else cur += c;
  }
  fields.push(cur);
  return fields;
}

/** Escape a value the way nmcli -e yes does (for tests and round trips). */
export const escapeTerse = (v: string) => v.replace(/\\/g, '\\\\').replace(/:/g, '\\:');

export interface ConnSummary {
  name: string;
  uuid: string;
  type: string;
  device: string;
  active: boolean;
  state: string;
  filename: string;
}

/** `nmcli -t -e yes -f NAME,UUID,TYPE,DEVICE,ACTIVE,STATE,FILENAME connection show` */
export function parseConnList(text: string): ConnSummary[] {
  return text.split('\n').filter((l) => l !== '').map((line) => {
    const f = splitTerse(line);
    if (f.length !== 7) throw new ProbeParseError(`expected 7 fields in nmcli line, got ${f.length}`, line);
    return { name: f[0], uuid: f[1], type: f[2], device: f[3], active: f[4] === 'yes', state: f[5], filename: f[6] };
  });
}

/** `nmcli -t -e yes -m multiline -f all connection show <name>`: keys never hold ':', so split at the first. */
export function parseConnSettings(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0 && /^[a-z0-9-]+\.[a-z0-9-]+$/.test(line.slice(0, at))) out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}

/** `nmcli -e yes -g a,b,c connection show <name>`: one escaped value per line. */
export function parseGetValues(text: string): string[] {
  return text.replace(/\n$/, '').split('\n').map((l) => splitTerse(l).join(':'));
}
