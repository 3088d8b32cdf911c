// Start-up cost: loading the module registry (every `hostwire run` does) must not build the schemas
// a run may never use. zod builds each schema object eagerly; iptables' ~300 objects were ~60% of
// all schema building at load (measured with --cpu-prof). kit/lazy-args.ts defers them to first use.
import test from 'ava';
import { z } from 'zod';
import { lazyArgs } from '../../src/modules/kit/lazy-args.js';
import { argNames } from '../../src/modules/kit/arg-names.js';
import { describeArgs } from '../../src/docs/schema-walk.js';
import { parseModuleArgs } from '../../src/modules/kit/ansible-coerce.js';

/** Counts zod schema objects built while `fn` runs whose construction passes through a file matching `from`. */
async function schemasBuilt<T>(from: RegExp, fn: () => Promise<T> | T): Promise<{ count: number; value: T }> {
  // ZodType's constructor assigns `this.parse = this.parse.bind(this)`: reading the prototype's
  // `parse` marks one construction.
  const proto = z.ZodType.prototype as unknown as Record<string, unknown>;
  const original = proto.parse;
  let count = 0;
  Object.defineProperty(proto, 'parse', {
    configurable: true,
    get() {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      if (from.test(new Error().stack ?? '')) count++;
      Error.stackTraceLimit = limit;
      return original;
    },
    set(v: unknown) {
      Object.defineProperty(this, 'parse', { value: v, writable: true, configurable: true, enumerable: true });
    },
  });
  try {
    const value = await fn();
    return { count, value };
  } finally {
    Object.defineProperty(proto, 'parse', { value: original, writable: true, configurable: true, enumerable: false });
  }
}

test('loading the module registry builds none of iptables\' schema; its first use builds it, once', async (t) => {
  const { count: atLoad, value: registry } = await schemasBuilt(/iptables\/args\.[jt]s\b/, () => import('../../src/modules/all.js'));
  t.true(atLoad <= 1, `only the lazy wrapper is built when the registry loads (${atLoad} objects)`);
  const iptables = registry.getModule('iptables')!;
  const { count: atUse, value: parsed } = await schemasBuilt(/iptables\/args\.[jt]s\b/, () => parseModuleArgs(iptables.args, { chain: 'INPUT', protocol: 'tcp', destination_port: 22, jump: 'ACCEPT' }));
  t.true(atUse > 100, `the first parse builds the schema (${atUse} objects)`);
  t.true(parsed.success);
  t.like(parsed.success ? parsed.data : {}, { chain: 'INPUT', protocol: 'tcp', destination_port: '22', jump: 'ACCEPT', table: 'filter' });
  const { count: again } = await schemasBuilt(/iptables\/args\.[jt]s\b/, () => parseModuleArgs(iptables.args, { chain: 'INPUT', flush: true }));
  t.is(again, 0, 'a later parse reuses the built schema');
  // What the reference and the argument checks see is the schema underneath.
  t.true(argNames(iptables.args).includes('destination_port'));
  t.like(describeArgs(iptables.args).find((a) => a.name === 'table'), { type: 'str', default: 'filter', choices: ['filter', 'nat', 'mangle', 'raw', 'security'] });
  const bad = parseModuleArgs(iptables.args, { chain: 'INPUT', flush: true, policy: 'DROP' });
  t.false(bad.success, 'the cross-argument checks still apply');
});

test('lazyArgs: built on first use only, and parses, walks and reports errors as the schema it wraps', (t) => {
  let builds = 0;
  const eager = () => z.object({ name: z.string().min(1), state: z.enum(['present', 'absent']).default('present') }).strict();
  const lazy = lazyArgs(() => { builds++; return eager(); });
  t.is(builds, 0);
  t.deepEqual(lazy.parse({ name: 'x' }), eager().parse({ name: 'x' }));
  t.deepEqual(lazy.safeParse({ name: '', nope: 1 }).error?.issues, eager().safeParse({ name: '', nope: 1 }).error?.issues);
  t.deepEqual(argNames(lazy), argNames(eager()));
  t.deepEqual(describeArgs(lazy), describeArgs(eager()));
  t.is(builds, 1);
});
