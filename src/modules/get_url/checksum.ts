// get_url's checksum argument (ansible-core 2.14 get_url.py): `<algorithm>:<hex>` or
// `<algorithm>:<URL of a checksum file>`; the file is one bare digest or `digest  name` lines, the
// digest for the URL's file name wins; the digest is cleaned (\W removed, lower case) and must be hex.

export const ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export type ChecksumSpec = { algorithm: Algorithm; digest: string } | { algorithm: Algorithm; url: string };

export function parseChecksumArg(value: string): ChecksumSpec | { error: string } {
  const at = value.indexOf(':');
  if (at < 0) return { error: 'The checksum parameter has to be in format <algorithm>:<checksum>' };
  const algorithm = value.slice(0, at);
  const rest = value.slice(at + 1);
  if (!(ALGORITHMS as readonly string[]).includes(algorithm)) return { error: `unsupported checksum algorithm '${algorithm}' (expected one of ${ALGORITHMS.join(', ')})` };
  if (/^(https?|ftp|file):/.test(rest)) return { algorithm: algorithm as Algorithm, url: rest };
  return cleanDigest(algorithm as Algorithm, rest);
}

export function cleanDigest(algorithm: Algorithm, raw: string): { algorithm: Algorithm; digest: string } | { error: string } {
  const digest = raw.replace(/[^\p{L}\p{N}_]+/gu, '').toLowerCase();
  if (!/^[0-9a-f]+$/.test(digest)) return { error: 'The checksum format is invalid' };
  return { algorithm, digest };
}

/** os.path.basename(urlsplit(url).path), 'index.html' when empty (url_filename). */
export function urlFilename(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url;
  }
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base === '' ? 'index.html' : decodeURIComponent(base.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
}

/** The digest for `filename` in a checksum file's text, as get_url.py reads it; undefined when none. */
export function digestFromFile(text: string, filename: string): string | undefined {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 1 && lines[0]!.trim().split(/\s+/).length === 1) return lines[0];
  for (const line of lines) {
    const at = line.indexOf(' ');
    if (at < 0) continue;
    let name = line.slice(at + 1);
    if (name.startsWith(' ') || name.startsWith('*')) name = name.slice(1);
    if (name.replace(/^[./]+/, '') === filename) return line.slice(0, at);
  }
  return undefined;
}
