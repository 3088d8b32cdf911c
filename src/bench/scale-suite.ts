// The scale run: hostwire at 200 and 500 light hosts (converge once, then timed no-op re-runs),
// and ansible-playbook at 100 for comparison. Light hosts are started fresh for each size.
import path from 'node:path';
import { onCleanup } from './cleanup.js';
import { startLightHosts, stopLightHosts, type LightHosts } from './light-hosts.js';
import type { Sample } from './lab-suite.js';
import { ROOT, runAnsible, runHostwire } from './tools.js';

const PLAY = path.join(ROOT, 'bench/scale/engine-20.yml');

export interface ScaleOptions {
  hostwireSizes: number[];
  ansibleSizes: number[];
  runs: number;
  netns: string;
  workDir: string;
  log: (s: string) => void;
}

export async function runScaleSuite(o: ScaleOptions): Promise<Sample[]> {
  const out: Sample[] = [];
  const jobs = [...o.hostwireSizes.map((n) => ({ n, tool: 'hostwire' as const })), ...o.ansibleSizes.map((n) => ({ n, tool: 'ansible' as const }))];
  for (const { n, tool } of jobs) {
    o.log(`scale: ${n} light hosts, ${tool}`);
    // Registered before the start: a bench ended meanwhile (signal, EPIPE) still removes what was made.
    const made = { netns: o.netns, dir: path.join(o.workDir, 'light'), procs: [] as LightHosts['procs'] };
    const forget = onCleanup(() => stopLightHosts(made));
    const l = await startLightHosts(n, o.netns, made.dir, (procs) => { made.procs = procs; });
    try {
      const run = (check = false) => (tool === 'hostwire'
        ? runHostwire(PLAY, l.inventory, { forks: n, check })
        : runAnsible(PLAY, l.inventory, l.netns, n, { check }));
      const phases: ('converge' | 'noop')[] = ['converge', ...Array.from({ length: o.runs }, () => 'noop' as const)];
      for (const phase of phases) {
        const r = await run();
        const s: Sample = { ...r, tool, phase, hosts: n, changed: r.changed };
        if ('bytesSent' in r) {
          const e = Object.values(r.execs);
          s.execsPerHost = e.length ? e.reduce((a, b) => a + b, 0) / e.length : undefined;
          const b = Object.values(r.bytesSent as Record<string, number>);
          s.bytesPerHost = b.length ? b.reduce((a, x) => a + x, 0) / b.length : undefined;
        }
        out.push(s);
        o.log(`  ${phase.padEnd(8)} ${(r.wallMs / 1000).toFixed(2)} s wall, ${(r.cpuMs / 1000).toFixed(2)} s cpu, peak ${(r.maxRssKb / 1024).toFixed(0)} MB (tree ${(r.treeRssKb / 1024).toFixed(0)} MB), changed=${r.changed}, failed=${r.failed}${r.code ? ` EXIT ${r.code}` : ''}`);
        if (r.code !== 0) o.log(`    ${(r.stderr || r.stdout).trim().split('\n').slice(-4).map((l) => l.slice(0, 300)).join('\n    ')}`);
      }
    } finally {
      forget();
      await stopLightHosts(l);
    }
  }
  return out;
}
