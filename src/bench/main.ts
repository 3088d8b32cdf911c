// `npm run bench`: hostwire vs ansible-playbook vs the SSH fan-out floor on lab hosts (3 and 10),
// then the scale run on light hosts; writes bench/results.json and bench/results.md.
// Options: see options.ts (--help).
import { loadavg } from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { installSignalCleanup, onCleanup, runCleanup } from './cleanup.js';
import { runLabSuite, type Sample, type SuiteResult } from './lab-suite.js';
import { describeMachine, summarize } from './report.js';
import { runScaleSuite } from './scale-suite.js';
import { fallbackSection, runFallbackSuite, type FallbackResult } from './fallback-suite.js';
import { BENCH_USAGE, parseBenchOptions, type BenchOptions } from './options.js';

const LABS: Record<number, string> = { 3: 'bench', 10: 'bench10' };

async function main(): Promise<void> {
  const o = parseBenchOptions(process.argv.slice(2));
  if (o.help) { process.stdout.write(`${BENCH_USAGE}\n`); return; }
  if (process.getuid?.() !== 0) throw new Error('the bench needs root (labs, network namespaces): run it as root');
  installSignalCleanup();
  const machine = describeMachine();
  const log = (s: string) => process.stdout.write(`${s}\n`);
  log(`hostwire bench: ${machine.cpu}, ${machine.cores} cores, load ${machine.loadavgStart.join(' ')}; ${machine.ansible}`);
  const work = mkdtempSync(path.join(tmpdir(), 'hwbench-'));
  onCleanup(async () => rmSync(work, { recursive: true, force: true }));
  const suites: SuiteResult[] = [];
  const scale: Sample[] = [];
  const fallback: FallbackResult[] = [];
  // Results are written after every suite: a long run that is stopped still leaves what it measured.
  const write = (final: boolean) => {
    if (!o.onlyFallback) writeResults(o, machine, suites, scale, final, log);
    if (fallback.length) writeFallback(o, fallback, log);
  };
  // Order: hostwire's scale run (short), the lab suites largest first (the targets are at 10 hosts),
  // then Ansible's scale comparison (the longest); partial results are written after each.
  const scaleJob = (job: { hostwireSizes: number[]; ansibleSizes: number[] }) => async () => {
    scale.push(...await runScaleSuite({ ...job, runs: o.scaleRuns, netns: 'hwb-benchs', workDir: work, log }));
  };
  const jobs: (() => Promise<void>)[] = [
    ...o.fallbackSizes.map((n) => async () => {
      fallback.push(await runFallbackSuite({ lab: `${o.fallbackLab}${n}`, hosts: n, runs: o.fallbackRuns, workDir: work, log }));
    }),
    ...o.scale.map((n) => scaleJob({ hostwireSizes: [n], ansibleSizes: [] })),
    ...[...o.sizes].sort((a, b) => b - a).map((n) => async () => {
      suites.push(await runLabSuite({ lab: LABS[n] ?? `bench${n}`, hosts: n, runs: o.runs, workDir: work, log, countAnsible: n === Math.min(...o.sizes) }));
      suites.sort((a, b) => a.hosts - b.hosts);
    }),
    ...o.ansibleScale.map((n) => scaleJob({ hostwireSizes: [], ansibleSizes: [n] })),
  ];
  try {
    for (const job of jobs) {
      await job();
      write(false);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  write(true);
}

/** The fallback's section of results.md, replaced in place (or appended), and results-fallback.json. */
function writeFallback(o: BenchOptions, results: FallbackResult[], log: (s: string) => void): void {
  const { lines, figures } = fallbackSection(results);
  mkdirSync(o.out, { recursive: true });
  const file = path.join(o.out, 'results.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# hostwire bench results\n';
  const start = old.indexOf('\n## Ansible-module fallback');
  const end = start < 0 ? -1 : old.indexOf('\n## ', start + 1);
  const section = `\n${lines.join('\n')}`;
  const md = start < 0 ? `${old.trimEnd()}\n${section}` : `${old.slice(0, start)}${section}${end < 0 ? '' : old.slice(end)}`;
  writeFileSync(file, md.endsWith('\n') ? md : `${md}\n`);
  writeFileSync(path.join(o.out, 'results-fallback.json'), `${JSON.stringify({ date: new Date().toISOString(), loadavg: loadavg(), figures, results }, null, 1)}\n`);
  log(lines.join('\n'));
}

function writeResults(o: BenchOptions, machine: ReturnType<typeof describeMachine>, suites: SuiteResult[], scale: Sample[], final: boolean, log: (s: string) => void): void {
  machine.loadavgEnd = loadavg().map((x) => Math.round(x * 100) / 100);
  const { table, targets, figures } = summarize(suites, scale);
  const notes = [
    ...suites.map((s) => `- ${s.hosts} hosts: shared verify failures: ${s.verifyFailures.length ? s.verifyFailures.join('; ') : 'none'}; hostwire --check on ansible-converged hosts reported changed = ${s.crossCheckChanged.join(', ') || 'n/a'} (0 = both tools left the same state).`),
  ];
  mkdirSync(o.out, { recursive: true });
  writeFileSync(path.join(o.out, 'results.json'), `${JSON.stringify({ machine, options: o, complete: final, targets: targets.met, figures, suites, scale }, null, 1)}\n`);
  const md = [
    final ? '# hostwire bench results' : '# hostwire bench results (PARTIAL: the run was still going when this was written)',
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memGiB} GiB, kernel ${machine.kernel}, node ${machine.node}, ${machine.ansible}, ${machine.openssh}.`,
    `Load average at start ${machine.loadavgStart.join(' ')}, at end ${machine.loadavgEnd.join(' ')} (the lab hosts run on the same cores as the controller). ${machine.date}.`,
    '',
    `Seconds: median (min-max) of ${o.runs} runs; each sample of each tool on a fresh lab. Floors: ssh2 (same library and netns relay as hostwire) and OpenSSH (ControlMaster off); ratios use the faster floor. CPU and peak memory: GNU time on the controller command (CPU includes waited-for children: ansible's forks and ssh, hostwire's relay); "tree" is the sampled sum over the process tree.`,
    '',
    table,
    '',
    '## Targets',
    '',
    ...targets.lines,
    '',
    '## Equivalence',
    '',
    ...notes,
    '',
  ].join('\n');
  writeFileSync(path.join(o.out, 'results.md'), md);
  if (final) log(`\n${table}\n\n${targets.lines.join('\n')}\n${notes.join('\n')}\nwrote ${path.join(o.out, 'results.md')} and results.json`);
  else log(`(partial results written to ${path.join(o.out, 'results.md')})`);
}

main().catch(async (e) => {
  const m = (e as Error).message ?? String(e);
  // A bad command line is the user's error: its message and usage, no stack.
  process.stderr.write(m.startsWith('bench: ') ? `${m}\n` : `bench failed: ${(e as Error).stack ?? e}\n`);
  process.exitCode = m.startsWith('bench: ') ? 2 : 1;
  await runCleanup();
});
