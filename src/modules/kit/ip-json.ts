// `ip -j` output (links, addresses, routes) as a list; empty output is an empty list.
import { ProbeParseError } from '../../errors.js';
import { parseToolJson } from '../../probe/tool-json.js';

export function parseIpJson<T>(text: string, what: string): T[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const v = parseToolJson<unknown>(trimmed, what, ['ifname', 'dst', 'dev']);
  if (!Array.isArray(v)) throw new ProbeParseError(`cannot parse ${what} output: not a JSON list`, text);
  return v as T[];
}
