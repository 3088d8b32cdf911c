// Debian version comparison (dpkg's verrevcmp, as apt_pkg.version_compare does it): epoch, then the
// upstream version and the revision compared part by part - non-digits by a modified ASCII order in
// which '~' sorts before everything (even the end) and letters before other characters, digits by value.

interface Parsed {
  epoch: number;
  upstream: string;
  revision: string;
}

function parse(v: string): Parsed {
  const colon = v.indexOf(':');
  const epoch = colon > 0 && /^\d+$/.test(v.slice(0, colon)) ? Number(v.slice(0, colon)) : 0;
  const rest = colon > 0 ? v.slice(colon + 1) : v;
  const dash = rest.lastIndexOf('-');
  return dash >= 0 ? { epoch, upstream: rest.slice(0, dash), revision: rest.slice(dash + 1) } : { epoch, upstream: rest, revision: '' };
}

/** dpkg's order of one character of a non-digit part ('' is the end of the part). */
function order(c: string): number {
  if (c === '') return 0;
  if (c === '~') return -1;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  return c.charCodeAt(0) + 256;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

function compareParts(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const ac = order(i < a.length && !isDigit(a[i]) ? a[i] : '');
      const bc = order(j < b.length && !isDigit(b[j]) ? b[j] : '');
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (!firstDiff) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}

/** < 0, 0 or > 0 as version a sorts before, with or after version b. */
export function compareDebVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa.epoch !== pb.epoch) return pa.epoch - pb.epoch;
  return compareParts(pa.upstream, pb.upstream) || compareParts(pa.revision, pb.revision);
}
