// RPM version comparison (rpmvercmp, and labelCompare over epoch, version, release, as ansible's dnf
// module compares a requested NEVR with the installed one): alphanumeric segments compared in turn,
// digits by value, letters by ASCII, a digit segment newer than a letter one; '~' sorts before
// everything (even the end), '^' after the end but before any further segment.

const SEGMENT = /^(\d+|[A-Za-z]+)/;

export function rpmvercmp(a: string, b: string): number {
  if (a === b) return 0;
  let x = a;
  let y = b;
  for (;;) {
    x = x.replace(/^[^A-Za-z0-9~^]+/, '');
    y = y.replace(/^[^A-Za-z0-9~^]+/, '');
    if (x.startsWith('~') || y.startsWith('~')) {
      if (!x.startsWith('~')) return 1;
      if (!y.startsWith('~')) return -1;
      x = x.slice(1);
      y = y.slice(1);
      continue;
    }
    if (x.startsWith('^') || y.startsWith('^')) {
      if (x === '') return -1;
      if (y === '') return 1;
      if (!x.startsWith('^')) return 1;
      if (!y.startsWith('^')) return -1;
      x = x.slice(1);
      y = y.slice(1);
      continue;
    }
    if (x === '' || y === '') break;
    const sx = SEGMENT.exec(x)![1];
    const isNum = /^\d/.test(sx);
    const sy = (isNum ? /^\d+/ : /^[A-Za-z]+/).exec(y)?.[0];
    // Segments of different kinds: the numeric one is newer.
    if (sy === undefined) return isNum ? 1 : -1;
    x = x.slice(sx.length);
    y = y.slice(sy.length);
    if (isNum) {
      const nx = sx.replace(/^0+/, '');
      const ny = sy.replace(/^0+/, '');
      if (nx.length !== ny.length) return nx.length > ny.length ? 1 : -1;
      if (nx !== ny) return nx > ny ? 1 : -1;
    } else if (sx !== sy) return sx > sy ? 1 : -1;
  }
  if (x === '' && y === '') return 0;
  return x === '' ? -1 : 1;
}

export interface Evr {
  epoch: string;
  version: string;
  release: string;
}

/** rpm's labelCompare: 1 when a is newer, 0 the same, -1 older (an empty epoch is 0). */
export function compareEvr(a: Evr, b: Evr): number {
  const ea = Number(a.epoch || '0');
  const eb = Number(b.epoch || '0');
  if (ea !== eb) return ea > eb ? 1 : -1;
  return rpmvercmp(a.version, b.version) || rpmvercmp(a.release, b.release);
}
