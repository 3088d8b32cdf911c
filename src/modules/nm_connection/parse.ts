// Pure parsers for nmcli's terse output. Terse (-t) and -g values escape ':' as '\:' and '\' as '\\'
// (with -e yes); multiline `-f all connection show <name>` prints `setting.property:raw value`.
import { ProbeParseError } from '../../errors.js';

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

/** The list's fields, UUID first: a UUID and an unescaped ':' can only start a record, never sit inside a value. */
export const LIST_FIELDS = 'UUID,TYPE,DEVICE,ACTIVE,STATE,NAME,FILENAME';
const RECORD_START = /(?:^|\n)(?=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:)/;

/**
 * `nmcli -t -e yes -f UUID,TYPE,DEVICE,ACTIVE,STATE,NAME,FILENAME connection show`. nmcli prints a
 * newline inside a name (and its file name) raw, so records are split where a UUID starts a line,
 * not at every newline: a connection named "a\nb" is read whole.
 */
export function parseConnList(text: string): ConnSummary[] {
  const body = text.replace(/\n$/, '');
  if (body === '') return [];
  return body.split(RECORD_START).filter((r) => r !== '').map((record) => {
    const f = splitTerse(record);
    if (f.length !== 7) throw new ProbeParseError(`nmcli connection list: the entry ${JSON.stringify(record.slice(0, 80))} is unreadable (expected 7 fields, got ${f.length})`, text);
    return { uuid: f[0], type: f[1], device: f[2], active: f[3] === 'yes', state: f[4], name: f[5], filename: f[6] };
  });
}

/**
 * `nmcli -t -e yes -m multiline -f all connection show <name>`: keys never hold ':', so split at the first.
 * nmcli prints a newline inside a value raw (proxy.pac-script is a script): a line that is not a
 * `setting.property:` line continues the value before it, and a property printed twice (a value
 * holding a newline and a forged `ipv4.method:...` line) makes the profile unreadable, never misread.
 */
export function parseConnSettings(text: string, conn = 'the connection'): Record<string, string> {
  const out: Record<string, string> = {};
  let last: string | undefined;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const at = line.indexOf(':');
    const key = at > 0 ? line.slice(0, at) : '';
    if (/^[a-z0-9-]+\.[a-z0-9-]+$/.test(key)) {
      if (key in out) throw new ProbeParseError(`nmcli connection show ${conn}: property ${key} is printed twice (a value before it holds a newline and '${key}:'); the profile's settings are unreadable`, text);
      out[key] = line.slice(at + 1);
      last = key;
    } else if (last !== undefined) out[last] += `\n${line}`;
  }
  return out;
}

/** `nmcli -e yes -g a,b,c connection show <name>`: one escaped value per line. */
export function parseGetValues(text: string): string[] {
  return text.replace(/\n$/, '').split('\n').map((l) => splitTerse(l).join(':'));
}
