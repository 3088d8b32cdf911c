// The bench's command line: a typo or --help must never start a run (a run overwrites bench/results.md).
import test from 'ava';
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { parseBenchOptions } from '../../src/bench/options.js';

const MAIN = fileURLToPath(new URL('../../src/bench/main.js', import.meta.url));

test('defaults and the fallback-only selection', (t) => {
  const d = parseBenchOptions([]);
  t.deepEqual([d.runs, d.sizes, d.scale, d.ansibleScale, d.fallbackSizes, d.fallbackRuns, d.scaleRuns], [5, [3, 10], [200, 500], [100], [3], 5, 3]);
  const f = parseBenchOptions(['--only-fallback', '--runs', '2', '--fallback-runs', '7']);
  t.deepEqual([f.sizes, f.scale, f.ansibleScale, f.fallbackSizes, f.runs, f.fallbackRuns, f.onlyFallback], [[], [], [], [3], 2, 7, true]);
});

test('unknown options, positionals and bad numbers are refused with the usage', (t) => {
  t.throws(() => parseBenchOptions(['--fast']), { message: /Unknown option '--fast'[\s\S]*usage: node dist\/src\/bench\/main\.js/ });
  t.throws(() => parseBenchOptions(['now']), { message: /positional argument/ });
  t.throws(() => parseBenchOptions(['--runs', 'x']), { message: /--runs expects a positive whole number, got 'x'/ });
  t.throws(() => parseBenchOptions(['--sizes', '3,0']), { message: /--sizes expects a positive whole number, got '0'/ });
});

test('--help prints the usage and runs nothing; a typo exits 2 without a stack', async (t) => {
  const help = await execa('node', [MAIN, '--help'], { reject: false, timeout: 60_000 });
  t.is(help.exitCode, 0);
  t.regex(help.stdout, /^usage: node dist\/src\/bench\/main\.js/);
  t.notRegex(help.stdout, /hostwire bench:/);
  const bad = await execa('node', [MAIN, '--only-fallbak'], { reject: false, timeout: 60_000 });
  t.is(bad.exitCode, 2);
  t.regex(bad.stderr, /^bench: Unknown option '--only-fallbak'/);
  t.notRegex(bad.stderr, /at .*\.js:\d+/);
});
