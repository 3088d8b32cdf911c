// The bench's command line, parsed strictly: an unknown option or a bad number is refused before
// anything runs (a typo must not start a half-hour run that overwrites bench/results.md).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './tools.js';

export const BENCH_USAGE = `usage: node dist/src/bench/main.js [options]
  --runs N               samples per lab suite (default 5)
  --sizes 3,10           lab suite sizes (hosts); --no-labs skips them
  --scale 200,500        hostwire scale-run sizes; --no-scale skips the scale runs
  --ansible-scale 100    ansible-playbook scale-run sizes
  --scale-runs N         samples per scale size (default 3)
  --fallback-sizes 3     fallback suite sizes; --no-fallback skips it
  --fallback-runs N      fallback samples (default --runs)
  --fallback-lab NAME    fallback lab name prefix (default fbench)
  --only-fallback        run only the fallback suite (updates only its results.md section)
  --out DIR              where results.json / results.md go (default bench/)
  --help                 this text`;

export interface BenchOptions {
  runs: number; sizes: number[]; scale: number[]; ansibleScale: number[]; fallbackSizes: number[];
  fallbackRuns: number; onlyFallback: boolean; fallbackLab: string; scaleRuns: number; out: string; help: boolean;
}

const positive = (name: string, v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`bench: --${name} expects a positive whole number, got '${v}'\n${BENCH_USAGE}`);
  return n;
};
const list = (name: string, v: string | undefined, d: number[]): number[] =>
  v === undefined ? d : v.split(',').filter(Boolean).map((x) => positive(name, x));

export function parseBenchOptions(argv: string[]): BenchOptions {
  const str = { type: 'string' } as const;
  const flag = { type: 'boolean' } as const;
  let values;
  try {
    ({ values } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: {
        runs: str, sizes: str, scale: str, 'ansible-scale': str, 'scale-runs': str, 'fallback-sizes': str,
        'fallback-runs': str, 'fallback-lab': str, out: str, 'no-labs': flag, 'no-scale': flag,
        'no-fallback': flag, 'only-fallback': flag, help: flag,
      },
    }));
  } catch (e) {
    throw new Error(`bench: ${(e as Error).message}\n${BENCH_USAGE}`);
  }
  const only = values['only-fallback'] === true;
  const noScale = values['no-scale'] === true || only;
  const runs = values.runs === undefined ? 5 : positive('runs', values.runs);
  return {
    runs,
    sizes: values['no-labs'] || only ? [] : list('sizes', values.sizes, [3, 10]),
    scale: noScale ? [] : list('scale', values.scale, [200, 500]),
    ansibleScale: noScale ? [] : list('ansible-scale', values['ansible-scale'], [100]),
    fallbackSizes: values['no-fallback'] ? [] : list('fallback-sizes', values['fallback-sizes'], [3]),
    fallbackRuns: values['fallback-runs'] === undefined ? runs : positive('fallback-runs', values['fallback-runs']),
    onlyFallback: only,
    fallbackLab: values['fallback-lab'] ?? 'fbench',
    scaleRuns: values['scale-runs'] === undefined ? 3 : positive('scale-runs', values['scale-runs']),
    out: path.resolve(values.out ?? path.join(ROOT, 'bench')),
    help: values.help === true,
  };
}
