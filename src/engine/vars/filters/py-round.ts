// Jinja's round filter (jinja2/filters.py do_round, Jinja 3.1 as ansible-core 2.14 runs it): 'common'
// is Python's round(value, precision) - correctly rounded on the double's exact value, ties to even:
// round(2.5) is 2.0, round(0.125, 2) is 0.12, round(2.675, 2) is 2.67 (the double is 2.67499...);
// 'ceil' and 'floor' are math.ceil/floor(value * 10**precision) / 10**precision.
import { pyTypeName } from '../py.js';
import { TemplateFailure } from '../undefined.js';

/** Python's round(x, n) for n >= 0 (Number.prototype.toFixed is exact but breaks ties away from zero). */
function roundDigits(x: number, n: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21 || n >= 100) return x;
  const exact = Math.abs(x).toFixed(100);
  const point = exact.indexOf('.');
  const tie = exact[point + 1 + n] === '5' && /^0*$/.test(exact.slice(point + 2 + n));
  if (!tie) return Number(x.toFixed(n));
  const kept = exact.slice(0, n === 0 ? point : point + 1 + n);
  const even = Number(kept[kept.length - 1]) % 2 === 0;
  const magnitude = even ? Number(kept) : Number(Math.abs(x).toFixed(n));
  return x < 0 ? -magnitude : magnitude;
}

/** Python's round(x, n); a negative n rounds to tens, hundreds... (computed on the scaled value). */
export function pyRound(x: number, n: number): number {
  if (n >= 0) return roundDigits(x, n);
  const f = 10 ** -n;
  return roundDigits(x / f, 0) * f;
}

export function doRound(value: unknown, precision: unknown = 0, method: unknown = 'common'): number {
  if (method !== 'common' && method !== 'ceil' && method !== 'floor') throw new TemplateFailure('method must be common, ceil or floor');
  if (typeof value !== 'number' && typeof value !== 'boolean') throw new TemplateFailure(`type ${pyTypeName(value)} doesn't define __round__ method`);
  if (typeof precision !== 'number' || !Number.isInteger(precision)) throw new TemplateFailure(`'${pyTypeName(precision)}' object cannot be interpreted as an integer`);
  const v = Number(value);
  if (method === 'common') return pyRound(v, precision);
  const f = 10 ** precision;
  return (method === 'ceil' ? Math.ceil(v * f) : Math.floor(v * f)) / f;
}
