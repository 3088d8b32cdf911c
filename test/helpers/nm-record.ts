// Recorded NetworkManager output (src/modules/ovs_gateway/cases/nm-*.txt): `@@name` section headers and
// nmcli's terse `property:value` lines.

/** The lines under each `@@name` header (a repeated header appends). */
export function sections(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let cur = '';
  for (const line of text.split('\n')) {
    const m = /^@@([\w-]+)$/.exec(line);
    if (m) { cur = m[1]!; if (!out.has(cur)) out.set(cur, []); continue; }
    if (cur) out.get(cur)!.push(line);
  }
  return out;
}

/** `nmcli -t -f ... connection show X` lines as property -> value. */
export const props = (lines: string[]): Record<string, string> =>
  Object.fromEntries(lines.filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]));
