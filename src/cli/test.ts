// `hostwire test [SCENARIO...]`: run molecule/ scenarios on real lab hosts.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadScenario } from '../scenario/load-scenario.js';
import { runScenario } from '../scenario/run-scenario.js';
import { createPlainRenderer } from '../ui/plain-renderer.js';
import { colorsWanted } from '../ui/colors.js';
import { reportError } from './errors.js';
import { count } from './options.js';

export function registerTestCommand(program: Command): void {
  program
    .command('test')
    .description('run molecule-style scenarios (create, prepare, converge, idempotence, check, verify, destroy) on lab hosts')
    .argument('[scenario...]', 'scenario names under molecule/ (default: all)')
    .option('--keep', 'keep the lab hosts after the run (no destroy)')
    .option('-d, --dir <dir>', 'scenarios folder', 'molecule')
    .option('-v, --verbose', 'show the playbook output', count, 0)
    .addHelpText('after', '\nExamples:\n  hostwire test default\n  hostwire test --keep microshift   # then: hostwire lab ssh tmicroshift-1')
    .action(async (names: string[], f: { keep?: boolean; dir: string; verbose: number }) => {
      try {
        const all = existsSync(f.dir) ? readdirSync(f.dir).filter((d) => existsSync(path.join(f.dir, d, 'scenario.yml'))).sort() : [];
        const chosen = names.length ? names : all;
        let failed = 0;
        for (const name of chosen) {
          const sc = await loadScenario(path.join(f.dir, name));
          process.stdout.write(`\n=== scenario ${name} (${sc.hosts.length} host(s)): ${sc.sequence.join(' -> ')}\n`);
          const plain = f.verbose ? createPlainRenderer({ write: (s) => process.stdout.write(s), color: colorsWanted(process.stdout), verbosity: f.verbose - 1, diff: true }) : undefined;
          const outcomes = await runScenario(sc, {
            keep: f.keep,
            onEvent: plain,
            log: (l) => process.stdout.write(`    ${l}\n`),
            onStep: (o) => process.stdout.write(`--- ${o.step}: ${o.ok ? 'ok' : 'FAILED'} (${o.seconds.toFixed(1)} s)\n${o.detail ? o.detail.replace(/^/gm, '    ') + '\n' : ''}`),
          });
          if (outcomes.some((o) => !o.ok)) failed++;
        }
        process.stdout.write(`\n${chosen.length - failed} passed, ${failed} failed\n`);
        process.exitCode = failed ? 2 : 0;
      } catch (err) {
        process.exitCode = reportError(err, f.verbose);
      }
    });
}
