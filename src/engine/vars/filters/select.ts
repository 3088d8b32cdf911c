// map / select / reject / selectattr / rejectattr: they apply other filters and tests by name.
import type nunjucks from 'nunjucks';
import { pyTruthy } from '../py.js';
import { iter, splitArgs, type Fn } from './args.js';
import { attrGetter } from './attr.js';

type Env = nunjucks.Environment & { getTest(name: string): unknown };
type Call = (this: unknown, ...a: unknown[]) => unknown;

function tester(env: Env, ctx: unknown, name: unknown, args: unknown[]): (x: unknown) => boolean {
  if (name === undefined) return (x) => pyTruthy(x);
  const test = env.getTest(String(name)) as unknown as Call;
  return (x) => test.call(ctx, x, ...args) === true;
}

export function selectFilters(env: Env): Record<string, Fn> {
  const select = (keep: boolean) =>
    function (this: unknown, v: unknown, test?: unknown, ...args: unknown[]): unknown[] {
      const t = tester(env, this, test, args);
      return iter(v).filter((x) => t(x) === keep);
    };
  const selectAttr = (keep: boolean) =>
    function (this: unknown, v: unknown, attribute: unknown, test?: unknown, ...args: unknown[]): unknown[] {
      const get = attrGetter(String(attribute));
      const t = tester(env, this, test, args);
      return iter(v).filter((x) => t(get(x)) === keep);
    };
  return {
    select: select(true),
    reject: select(false),
    selectattr: selectAttr(true),
    rejectattr: selectAttr(false),
    map(this: unknown, v: unknown, ...rest: unknown[]): unknown[] {
      const a = splitArgs(rest);
      if (a.pos.length === 0 && 'attribute' in a.kw) {
        const get = attrGetter(String(a.kw.attribute), a.kw.default);
        return iter(v).map(get);
      }
      const [name, ...fargs] = a.pos;
      const filter = env.getFilter(String(name)) as unknown as Call;
      const kw = Object.keys(a.kw).length ? [{ ...a.kw, __keywords: true }] : [];
      return iter(v).map((x) => filter.call(this, x, ...fargs, ...kw));
    },
  };
}
