// Pure parsing of `etcdctl -w json get <key>` (values are base64) and stable JSON serialisation.
import { ProbeParseError } from '../../errors.js';

/** The key's value, or undefined when the key does not exist. */
export function parseGet(text: string): string | undefined {
  let doc: { kvs?: { value?: string }[] };
  try {
    doc = JSON.parse(text) as { kvs?: { value?: string }[] };
  } catch (err) {
    throw new ProbeParseError(`cannot parse etcdctl JSON: ${(err as Error).message}`, text, err);
  }
  const kv = doc.kvs?.[0];
  return kv ? Buffer.from(kv.value ?? '', 'base64').toString('utf8') : undefined;
}

/** JSON with object keys sorted at every level, so the same data always gives the same text. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** Same data: equal text, or both JSON with equal stable forms. */
export function sameValue(have: string, want: string, json: boolean): boolean {
  if (have === want) return true;
  if (!json) return false;
  try {
    return stableJson(JSON.parse(have)) === want;
  } catch {
    return false;
  }
}
