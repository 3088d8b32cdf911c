// kit/deb-version.ts against dpkg itself: each pair's order as `dpkg --compare-versions` (dpkg 1.21,
// Debian 12) gave it on the controller.
import test from 'ava';
import { compareDebVersions } from '../../src/modules/kit/deb-version.js';

const DPKG_SAYS: [string, '<' | '=' | '>', string][] = [
  ['1.0', '<', '1.0-1'],
  ['1.0~rc1', '<', '1.0'],
  ['1:0.9', '>', '2.0'],
  ['1.0a', '<', '1.0+'],
  ['1.10', '>', '1.9'],
  ['2.0-1', '>', '2.0-1~bpo1'],
  ['1.0.0', '>', '1.0'],
  ['0001', '=', '1'],
  ['1.0-1a', '>', '1.0-1'],
];

for (const [a, rel, b] of DPKG_SAYS) {
  test(`${a} ${rel} ${b}`, (t) => {
    const c = compareDebVersions(a, b);
    t.is(Math.sign(c), rel === '<' ? -1 : rel === '=' ? 0 : 1);
    t.is(Math.sign(compareDebVersions(b, a)), -Math.sign(c) || 0, 'and the other way round');
  });
}
