// Python's str()/repr() of plain data, for output that must read like Ansible's
// (ansible-inventory --graph --vars prints `{name = value}` with Python's str()).

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + quote;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + quote;
}

export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? 'inf' : v < 0 ? '-inf' : 'nan';
  if (typeof v === 'string') return reprString(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (v instanceof Date) return `datetime.date(${v.getUTCFullYear()}, ${v.getUTCMonth() + 1}, ${v.getUTCDate()})`;
  if (typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${reprString(k)}: ${pyRepr(x)}`).join(', ')}}`;
  }
  return String(v);
}

/** Python's str(): strings as they are, everything else as repr(). */
export function pyStr(v: unknown): string {
  return typeof v === 'string' ? v : pyRepr(v);
}
