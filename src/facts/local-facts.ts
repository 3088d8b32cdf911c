// ansible_local: the *.fact files of /etc/ansible/facts.d as ansible-core 2.14's local collector reads
// them - an executable one is run and its output used, any other is read; the text is JSON, else INI
// (sections of options, names lowercased), else an error string in its place. Each file's name and
// output travel base64-encoded, so nothing a fact prints can forge the next one.
import type { FactProbe } from './types.js';
import { hasOwn, ownOrSet, setOwn } from '../own-keys.js';

export const FACT_PATH = '/etc/ansible/facts.d';

const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** configparser's reading (no interpolation): a section header first, `key = value` or `key: value`. */
export function parseIniFact(text: string): Record<string, Record<string, string>> | undefined {
  const out: Record<string, Record<string, string>> = {};
  const defaults: Record<string, string> = {};
  let section: Record<string, string> | undefined;
  let last: { into: Record<string, string>; key: string } | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;].*)?$/.test(raw)) { last = undefined; continue; }
    if (/^\s/.test(raw) && last) { setOwn(last.into, last.key, `${last.into[last.key]}\n${raw.trim()}`); continue; }
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = header[1] === 'DEFAULT' ? defaults : ownOrSet(out, header[1]!, () => ({}));
      continue;
    }
    const kv = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(raw.trim());
    if (!section || !kv) return undefined;
    const key = kv[1]!.toLowerCase();
    setOwn(section, key, kv[2]!);
    last = { into: section, key };
  }
  for (const s of Object.values(out)) for (const [k, v] of Object.entries(defaults)) if (!hasOwn(s, k)) setOwn(s, k, v);
  return out;
}

function factValue(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return parseIniFact(text) ?? `error loading facts as JSON or ini - please check content: ${file}`;
  }
}

export const localFactsFact: FactProbe<Record<string, unknown>> = {
  id: 'local',
  command: [
    `d=${FACT_PATH}; [ -d "$d" ] || exit 0`,
    'for f in "$d"/*.fact; do [ -e "$f" ] || continue; n=$(printf %s "$f" | base64 -w0)',
    'if [ -x "$f" ]; then o=$("$f" 2>/dev/null); r=$?; k=x; else o=$(cat -- "$f" 2>/dev/null); r=0; k=r; fi',
    'printf "%s %s %s %s\\n" "$n" "$k" "$r" "$(printf %s "$o" | base64 -w0)"; done',
  ].join('\n'),
  parse(o) {
    const local: Record<string, unknown> = {};
    for (const line of o.stdout.split('\n')) {
      const [name, kind, rc, out = ''] = line.trim().split(' ');
      if (!name || !kind) continue;
      const file = b64(name);
      const base = file.split('/').pop()!.replaceAll('.fact', '');
      setOwn(local, base, kind === 'x' && rc !== '0' ? `Failure executing fact script (${file}), rc: ${rc}, err: ` : factValue(file, b64(out)));
    }
    return local;
  },
};
