// uri's request body as uri.py prepares it: json (a non-string is dumped as Python's json.dumps does,
// ', ' and ': ' separators, ASCII escapes) with Content-Type application/json unless given;
// form-urlencoded (a mapping or pairs, urlencode with doseq and quote_plus) likewise; raw as given.

/** Python's json.dumps(value) with its default separators and ensure_ascii. */
export function pyJsonDumps(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : v < 0 ? '-Infinity' : 'NaN';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(pyJsonDumps).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${pyJsonDumps(k)}: ${pyJsonDumps(x)}`).join(', ')}}`;
}

/** urllib.parse.quote_plus: only letters, digits and _.-~ stay; space is +. */
const quotePlus = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');

const pyText = (v: unknown) => (typeof v === 'boolean' ? (v ? 'True' : 'False') : typeof v === 'string' ? v : JSON.stringify(v));

export function formUrlencoded(body: unknown): string {
  if (typeof body === 'string') return body;
  const pairs = Array.isArray(body) ? (body as unknown[][]).map((p) => [p[0], p[1]] as const) : Object.entries((body ?? {}) as Record<string, unknown>);
  const out: string[] = [];
  for (const [key, values] of pairs) {
    for (const value of Array.isArray(values) ? values : [values]) {
      if (value !== null && value !== undefined) out.push(`${quotePlus(pyText(key))}=${quotePlus(pyText(value))}`);
    }
  }
  return out.join('&');
}

export function prepareBody(body: unknown, format: 'raw' | 'json' | 'form-urlencoded', headers: Record<string, string>): { body?: Buffer; headers: Record<string, string> } {
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  if (format === 'json') {
    const text = typeof body === 'string' ? body : pyJsonDumps(body);
    return { body: Buffer.from(text), headers: has('content-type') ? headers : { ...headers, 'Content-Type': 'application/json' } };
  }
  if (format === 'form-urlencoded') {
    return { body: Buffer.from(formUrlencoded(body)), headers: has('content-type') ? headers : { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' } };
  }
  if (body === undefined || body === null) return { headers };
  return { body: Buffer.from(typeof body === 'string' ? body : pyText(body)), headers };
}
