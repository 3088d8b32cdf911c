// The fallback bench: a task list made only of Ansible modules hostwire has no native version of
// (bench/fallback/site.yml: ansible-core's getent, known_hosts, debconf and a library/ module), run
// by hostwire (through its fallback: one payload per host, one Python worker per host) and by
// ansible-playbook on the same kind of hosts, both reading bench/ansible/ansible.cfg (ControlPersist=60s: kept
// connections for both, ansible-playbook's OpenSSH masters and hostwire's connection keeper). Per sample and tool a fresh lab: first converge (for
// hostwire this includes shipping the payload to each host), then a no-op re-run; afterwards
// hostwire --check on the ansible-converged hosts must report changed=0 (both left the same state).
// Both tools run inside the lab's network namespace (`ip netns exec`), as ansible-playbook must be run
// to reach the lab hosts; hostwire's no-op is also timed from the root namespace through its netns
// relay process (the way the other suites run it), reported beside.
import { loadavg } from 'node:os';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { labDown, labInventoryYaml, labUp } from '../lab/index.js';
import { onCleanup } from './cleanup.js';
import type { Sample } from './lab-suite.js';
import { stat, type Stat } from './measure.js';
import { ANSIBLE_CFG, ROOT, runAnsible, runHostwire } from './tools.js';

export const FALLBACK_PLAY = path.join(ROOT, 'bench/fallback/site.yml');

/** `relay`: hostwire run from the root namespace, its connections through the netns relay process. */
export type FallbackSample = Sample & { relay?: boolean };

export interface FallbackResult {
  hosts: number;
  samples: FallbackSample[];
  crossCheckChanged: number[];
}

export interface FallbackOptions {
  lab: string;
  hosts: number;
  runs: number;
  workDir: string;
  log: (s: string) => void;
}

const perHost = (m: Record<string, number>) => {
  const v = Object.values(m);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : undefined;
};

async function freshLab(o: FallbackOptions) {
  await labDown(o.lab).catch(() => undefined);
  const up = await labUp({ name: o.lab, hosts: o.hosts });
  const inventory = path.join(o.workDir, `${o.lab}.yml`);
  writeFileSync(inventory, labInventoryYaml(up.state));
  return { state: up.state, inventory };
}

export async function runFallbackSuite(o: FallbackOptions): Promise<FallbackResult> {
  const forget = onCleanup(async () => { await labDown(o.lab).catch(() => undefined); });
  const res: FallbackResult = { hosts: o.hosts, samples: [], crossCheckChanged: [] };
  const add = (s: FallbackSample) => {
    res.samples.push(s);
    o.log(`  fallback ${o.hosts} hosts ${s.tool.padEnd(8)} ${(s.phase + (s.relay ? '/relay' : '')).padEnd(8)} ${(s.wallMs / 1000).toFixed(2)} s wall, changed=${s.changed}${s.bytesPerHost !== undefined ? `, ${s.bytesPerHost.toFixed(0)} B/host sent` : ''}${s.code ? ` EXIT ${s.code}` : ''}`);
    if (s.code !== 0) o.log(`    ${(s.stderr || s.stdout).trim().split('\n').slice(-5).map((l) => l.slice(0, 300)).join('\n    ')}`);
  };
  for (let i = 0; i < o.runs; i++) {
    o.log(`fallback, ${o.hosts} hosts, sample ${i + 1}/${o.runs}`);
    let lab = await freshLab(o);
    for (const phase of ['converge', 'noop'] as const) {
      const r = await runHostwire(FALLBACK_PLAY, lab.inventory, { netns: lab.state.netns, config: ANSIBLE_CFG });
      add({ ...r, tool: 'hostwire', phase, hosts: o.hosts, changed: r.changed, execsPerHost: perHost(r.execs), bytesPerHost: perHost(r.bytesSent) });
    }
    const viaRelay = await runHostwire(FALLBACK_PLAY, lab.inventory);
    add({ ...viaRelay, tool: 'hostwire', phase: 'noop', relay: true, hosts: o.hosts, changed: viaRelay.changed, execsPerHost: perHost(viaRelay.execs), bytesPerHost: perHost(viaRelay.bytesSent) });
    lab = await freshLab(o);
    for (const phase of ['converge', 'noop'] as const) {
      const r = await runAnsible(FALLBACK_PLAY, lab.inventory, lab.state.netns, o.hosts);
      add({ ...r, tool: 'ansible', phase, hosts: o.hosts, changed: r.changed });
    }
    res.crossCheckChanged.push((await runHostwire(FALLBACK_PLAY, lab.inventory, { check: true, netns: lab.state.netns, config: ANSIBLE_CFG })).changed);
  }
  await labDown(o.lab).catch(() => undefined);
  forget();
  return res;
}

const ok = (xs: FallbackSample[], tool: string, phase: string, relay = false) => xs.filter((s) => s.tool === tool && s.phase === phase && s.code === 0 && Boolean(s.relay) === relay).map((s) => s.wallMs);
const sec = (s: Stat) => (s.n ? `${(s.median / 1000).toFixed(2)} (${(s.min / 1000).toFixed(2)}-${(s.max / 1000).toFixed(2)})` : 'n/a');

/** The results.md section: table, the two targets, equivalence. */
export function fallbackSection(results: FallbackResult[]): { lines: string[]; figures: Record<string, unknown> } {
  const lines = [
    '## Ansible-module fallback',
    '',
    `\`${path.relative(ROOT, FALLBACK_PLAY)}\`: 10 tasks, every one a module hostwire has no native version of (ansible-core's getent x2, known_hosts x3, debconf x2, and a library/ module x3). hostwire runs the modules themselves through its fallback; ansible-playbook runs the same playbook. Both read the same bench/ansible/ansible.cfg: its ssh_args ControlPersist=60s makes ansible-playbook's OpenSSH keep a master connection per host, and hostwire's connection keeper likewise (README, Kept connections); each tool's no-op re-run reuses what its converge left. Both run inside the lab's network namespace (\`ip netns exec\`, as ansible-playbook must be run to reach the lab hosts). Fresh lab per sample and tool; hostwire's converge includes shipping the payload to each host (its controller keeps the built payload between runs). The \"noop, via relay\" row is hostwire's no-op run from the root namespace instead, its SSH connections through its netns relay process (a second node process, and one more hop per packet), as the other suites run it.`,
    '',
    `Load average when written: ${loadavg().map((x) => x.toFixed(2)).join(' ')} (2 cores shared with the lab hosts and other work: absolute seconds are inflated, the ratios are what the targets are about).`,
    '',
    '| hosts | phase | hostwire s | ansible s | ansible / hostwire | hostwire execs/host | hostwire bytes sent/host |',
    '|---|---|---|---|---|---|---|',
  ];
  const figures: Record<string, unknown> = {};
  const targets: string[] = [];
  for (const r of results) {
    for (const phase of ['converge', 'noop']) {
      const hw = stat(ok(r.samples, 'hostwire', phase));
      const an = stat(ok(r.samples, 'ansible', phase));
      const ratio = hw.n && an.n ? an.median / hw.median : null;
      const hwSamples = r.samples.filter((s) => s.tool === 'hostwire' && s.phase === phase && s.code === 0 && !s.relay);
      const execs = stat(hwSamples.map((s) => s.execsPerHost ?? NaN).filter(Number.isFinite));
      const bytes = stat(hwSamples.map((s) => s.bytesPerHost ?? NaN).filter(Number.isFinite));
      figures[`fallback.${r.hosts}.${phase}`] = { hostwire: hw, ansible: an, ratio, execsPerHost: execs, bytesPerHost: bytes };
      lines.push(`| ${r.hosts} | ${phase} | ${sec(hw)} | ${sec(an)} | ${ratio === null ? 'n/a' : `${ratio.toFixed(1)}x`} | ${execs.n ? execs.median.toFixed(1) : 'n/a'} | ${bytes.n ? bytes.median.toFixed(0) : 'n/a'} |`);
      const goal = phase === 'converge' ? 3 : 5;
      targets.push(`- Fallback ${phase === 'converge' ? 'first converge' : 'no-op re-run'}, ${r.hosts} hosts, >= ${goal}x faster than ansible-playbook: ${ratio === null ? 'not measured' : `${ratio.toFixed(1)}x - ${ratio >= goal ? 'MET' : 'MISSED'}`}`);
    }
    const relayed = r.samples.filter((s) => s.tool === 'hostwire' && s.phase === 'noop' && s.code === 0 && s.relay);
    if (relayed.length) {
      const hw = stat(relayed.map((s) => s.wallMs));
      const an = stat(ok(r.samples, 'ansible', 'noop'));
      const ratio = hw.n && an.n ? an.median / hw.median : null;
      figures[`fallback.${r.hosts}.noop_relay`] = { hostwire: hw, ansible: an, ratio };
      lines.push(`| ${r.hosts} | noop, via relay | ${sec(hw)} | ${sec(an)} | ${ratio === null ? 'n/a' : `${ratio.toFixed(1)}x`} | ${stat(relayed.map((s) => s.execsPerHost ?? NaN).filter(Number.isFinite)).median.toFixed(1)} | ${stat(relayed.map((s) => s.bytesPerHost ?? NaN).filter(Number.isFinite)).median.toFixed(0)} |`);
    }
  }
  lines.push('', ...targets, '');
  for (const r of results) lines.push(`- ${r.hosts} hosts: hostwire --check on the ansible-converged hosts reported changed = ${r.crossCheckChanged.join(', ') || 'n/a'} (0 = both tools left the same state).`);
  lines.push('');
  return { lines, figures };
}
