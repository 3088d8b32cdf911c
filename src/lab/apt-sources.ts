// The rootfs comes from the same Debian mirror the machine itself uses: read apt's sources
// (one-line .list and deb822 .sources) and keep the Debian entries for the wanted release.
import { readdir, readFile } from 'node:fs/promises';

export interface AptSource {
  uri: string;
  suite: string;
  components: string[];
}

/** Parse one-line `deb [opts] uri suite comp...` entries; deb-src and comments are skipped. */
export function parseOneLineSources(text: string): AptSource[] {
  const out: AptSource[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line.startsWith('deb ')) continue;
    const rest = line.slice(4).replace(/\[[^\]]*\]/, '').trim().split(/\s+/);
    const [uri, suite, ...components] = rest;
    if (uri && suite) out.push({ uri, suite, components });
  }
  return out;
}

/** Parse deb822 stanzas (Types/URIs/Suites/Components), honouring `Enabled: no`. */
export function parseDeb822Sources(text: string): AptSource[] {
  const out: AptSource[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last = '';
    for (const raw of stanza.split('\n')) {
      if (raw.startsWith('#')) continue;
      if (/^\s/.test(raw) && last) {
        fields.set(last, `${fields.get(last)} ${raw.trim()}`);
        continue;
      }
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(raw);
      if (m) fields.set((last = m[1]!.toLowerCase()), m[2]!.trim());
    }
    if (!(fields.get('types') ?? '').split(/\s+/).includes('deb')) continue;
    if ((fields.get('enabled') ?? 'yes').toLowerCase() === 'no') continue;
    const components = (fields.get('components') ?? '').split(/\s+/).filter(Boolean);
    for (const uri of (fields.get('uris') ?? '').split(/\s+/).filter(Boolean)) {
      for (const suite of (fields.get('suites') ?? '').split(/\s+/).filter(Boolean)) {
        out.push({ uri, suite, components });
      }
    }
  }
  return out;
}

/**
 * mmdebstrap mirror lines for `release` (bookworm, bookworm-updates, bookworm-security ...), `main` only.
 * Third-party repositories never match: their suites are not the release name.
 */
export function mirrorLines(sources: AptSource[], release: string): string[] {
  const lines = sources
    .filter((s) => s.suite === release || s.suite.startsWith(`${release}-`) || s.suite.startsWith(`${release}/`))
    .filter((s) => s.components.includes('main'))
    .map((s) => `deb ${s.uri} ${s.suite} main`);
  return [...new Set(lines)];
}

/** Read the machine's apt configuration; falls back to deb.debian.org when nothing matches. */
export async function machineMirrorLines(release: string, etcApt = '/etc/apt'): Promise<string[]> {
  const sources: AptSource[] = [];
  const read = (p: string): Promise<string> => readFile(p, 'utf8').catch(() => '');
  sources.push(...parseOneLineSources(await read(`${etcApt}/sources.list`)));
  const names = await readdir(`${etcApt}/sources.list.d`).catch(() => [] as string[]);
  for (const n of names.sort()) {
    if (n.endsWith('.list')) sources.push(...parseOneLineSources(await read(`${etcApt}/sources.list.d/${n}`)));
    if (n.endsWith('.sources')) sources.push(...parseDeb822Sources(await read(`${etcApt}/sources.list.d/${n}`)));
  }
  const lines = mirrorLines(sources, release);
  return lines.length ? lines : [`deb http://deb.debian.org/debian ${release} main`];
}
