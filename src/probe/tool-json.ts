// JSON printed by host tools is host data: iproute2's `ip -j` prints an interface name's control
// bytes raw inside its strings (a name with \x01 made every `ip -j` read fail, and the facts lost the
// default route with it). Raw control characters inside strings are escaped before parsing, so the
// name is read as the kernel has it; what still cannot be parsed is named (the object around the error).
import { ProbeParseError } from '../errors.js';

/** Escapes raw control characters (U+0000-U+001F) that stand inside JSON strings; the rest is unchanged. */
export function escapeControlsInStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') {
        out += c + (text[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === '"') inString = false;
      const code = c.charCodeAt(0);
      out += code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : c;
    } else {
      if (c === '"') inString = true;
      out += c;
    }
  }
  return out;
}

/** The `"key":"value"` nearest before `at` (the object being read when parsing failed), if any. */
function objectNear(text: string, at: number, keys: string[]): string | undefined {
  let best: { at: number; s: string } | undefined;
  for (const k of keys) {
    const re = new RegExp(`"${k}":("(?:[^"\\\\]|\\\\.)*")`, 'g');
    for (let m = re.exec(text); m && m.index < at; m = re.exec(text)) if (!best || m.index > best.at) best = { at: m.index, s: `${k} ${m[1]}` };
  }
  return best?.s;
}

/**
 * Parses a tool's JSON output (`what` names the command in errors). `keys` are the fields that name an
 * object (ifname, dev...): a failure says which object could not be read.
 */
export function parseToolJson<T>(text: string, what: string, keys: string[] = []): T {
  const fixed = escapeControlsInStrings(text);
  try {
    return JSON.parse(fixed) as T;
  } catch (err) {
    const pos = /position (\d+)/.exec((err as Error).message);
    const near = pos ? objectNear(fixed, Number(pos[1]), keys) : undefined;
    throw new ProbeParseError(`cannot parse ${what} output as JSON${near ? ` (the entry after ${near} is unreadable)` : ''}: ${(err as Error).message}`, text, err);
  }
}
