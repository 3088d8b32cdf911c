// Turns the samples into bench/results.json and the bench/results.md table: medians with min-max,
// the ratios the targets are about, execs/bytes per host, controller CPU and peak memory.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import type { Sample, SuiteResult } from './lab-suite.js';
import { stat, type Stat } from './measure.js';

export interface Machine {
  cpu: string;
  cores: number;
  memGiB: number;
  kernel: string;
  node: string;
  ansible: string;
  openssh: string;
  loadavgStart: number[];
  loadavgEnd?: number[];
  date: string;
}

// `ssh -V` prints its version on stderr (exit 0): take whichever stream has text.
const sh = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return (r.stdout ?? '').trim() || (r.stderr ?? '').trim() || 'unknown';
};

export function describeMachine(): Machine {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memGiB: Math.round(totalmem() / 2 ** 30),
    kernel: sh('uname', ['-r']),
    node: process.version,
    ansible: sh('ansible-playbook', ['--version']).split('\n')[0] ?? 'not installed',
    openssh: sh('ssh', ['-V']),
    loadavgStart: loadavg().map((x) => Math.round(x * 100) / 100),
    date: new Date().toISOString(),
  };
}

const pick = (xs: Sample[], tool: string, phase: string, hosts: number) => xs.filter((s) => s.tool === tool && s.phase === phase && s.hosts === hosts && s.code === 0);
const st = (xs: Sample[], f: (s: Sample) => number | undefined): Stat => stat(xs.map(f).filter((v): v is number => v !== undefined && Number.isFinite(v)));
const sec = (s: Stat) => (s.n ? `${(s.median / 1000).toFixed(2)} (${(s.min / 1000).toFixed(2)}-${(s.max / 1000).toFixed(2)})` : 'n/a');
const num = (s: Stat, d = 0) => (s.n ? s.median.toFixed(d) : 'n/a');
const mb = (s: Stat) => (s.n ? `${(s.median / 1024).toFixed(0)}` : 'n/a');
const ratio = (a: Stat, b: Stat) => (a.n && b.n ? `${(a.median / b.median).toFixed(1)}x` : 'n/a');

export interface Targets { lines: string[]; met: Record<string, boolean | null> }

export function summarize(suites: SuiteResult[], scale: Sample[]): { table: string; targets: Targets; figures: Record<string, unknown> } {
  const all = suites.flatMap((s) => s.samples);
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  lines.push('| hosts | phase | hostwire s | ansible s | floor ssh2 s | floor OpenSSH s | ansible / hostwire | hostwire / floor | hostwire execs/host | hostwire payload B/host | wire B/host hw / ansible | ansible execs/host | ctl CPU s hw / ansible | peak MB hw / ansible (tree) |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const s of suites) {
    const n = s.hosts;
    const fl = st(pick(all, 'floor_ssh2', 'floor', n), (x) => x.wallMs);
    const flo = st(pick(all, 'floor_openssh', 'floor', n), (x) => x.wallMs);
    const floor = fl.n && flo.n ? (fl.median <= flo.median ? fl : flo) : fl.n ? fl : flo;
    for (const phase of ['converge', 'noop', 'check']) {
      const hw = pick(all, 'hostwire', phase, n);
      const an = pick(all, 'ansible', phase, n);
      const hwW = st(hw, (x) => x.wallMs);
      const anW = st(an, (x) => x.wallMs);
      figures[`${n}.${phase}`] = {
        hostwire: hwW, ansible: anW, floor_ssh2: fl, floor_openssh: flo,
        hostwireCpuMs: st(hw, (x) => x.cpuMs), ansibleCpuMs: st(an, (x) => x.cpuMs),
        hostwireExecsPerHost: st(hw, (x) => x.execsPerHost), hostwireBytesPerHost: st(hw, (x) => x.bytesPerHost),
        hostwireWireBytesPerHost: st(hw, (x) => x.wireBytesPerHost), ansibleWireBytesPerHost: st(an, (x) => x.wireBytesPerHost),
        ansibleExecsPerHost: s.ansibleExecsPerHost?.[phase as 'noop'],
        ratioAnsibleOverHostwire: anW.n && hwW.n ? anW.median / hwW.median : null,
        ratioHostwireOverFloor: hwW.n && floor.n ? hwW.median / floor.median : null,
      };
      lines.push(`| ${n} | ${phase} | ${sec(hwW)} | ${sec(anW)} | ${sec(fl)} | ${sec(flo)} | ${ratio(anW, hwW)} | ${ratio(hwW, floor)} | ${num(st(hw, (x) => x.execsPerHost), 1)} | ${num(st(hw, (x) => x.bytesPerHost))} | ${num(st(hw, (x) => x.wireBytesPerHost))} / ${num(st(an, (x) => x.wireBytesPerHost))} | ${s.ansibleExecsPerHost?.[phase as 'noop']?.toFixed(1) ?? 'n/a'} | ${num(st(hw, (x) => x.cpuMs / 1000), 2)} / ${num(st(an, (x) => x.cpuMs / 1000), 2)} | ${mb(st(hw, (x) => x.maxRssKb))} / ${mb(st(an, (x) => x.maxRssKb))} (${mb(st(hw, (x) => x.treeRssKb))} / ${mb(st(an, (x) => x.treeRssKb))}) |`);
    }
  }
  lines.push('');
  if (scale.length) {
    lines.push('| scale | tool | phase | wall s | controller CPU s | peak MB (largest process) | peak MB (process tree) | execs/host | samples |');
    lines.push('|---|---|---|---|---|---|---|---|---|');
    const sizes = [...new Set(scale.map((s) => `${s.tool}:${s.hosts}`))];
    for (const key of sizes) {
      const [tool, h] = key.split(':');
      for (const phase of ['converge', 'noop']) {
        const xs = pick(scale, tool!, phase, Number(h));
        if (!xs.length) continue;
        figures[`scale.${tool}.${h}.${phase}`] = { wall: st(xs, (x) => x.wallMs), cpu: st(xs, (x) => x.cpuMs), maxRssKb: st(xs, (x) => x.maxRssKb), treeRssKb: st(xs, (x) => x.treeRssKb) };
        lines.push(`| ${h} | ${tool} | ${phase} | ${sec(st(xs, (x) => x.wallMs))} | ${num(st(xs, (x) => x.cpuMs / 1000), 2)} | ${mb(st(xs, (x) => x.maxRssKb))} | ${mb(st(xs, (x) => x.treeRssKb))} | ${num(st(xs, (x) => x.execsPerHost), 1)} | ${xs.length} |`);
      }
    }
  }
  const f10 = (p: string) => figures[`10.${p}`] as { ratioAnsibleOverHostwire: number | null; ratioHostwireOverFloor: number | null } | undefined;
  const s500 = figures['scale.hostwire.500.noop'] as { wall: Stat; maxRssKb: Stat; treeRssKb: Stat } | undefined;
  const t: Targets = { lines: [], met: {} };
  const check = (key: string, label: string, value: number | null | undefined, ok: (v: number) => boolean, show: (v: number) => string) => {
    if (value === null || value === undefined || !Number.isFinite(value)) { t.met[key] = null; t.lines.push(`- ${label}: not measured`); return; }
    t.met[key] = ok(value);
    t.lines.push(`- ${label}: ${show(value)} - ${ok(value) ? 'MET' : 'MISSED'}`);
  };
  check('noop10_vs_ansible', 'No-op re-run, 10 hosts, >= 20x faster than ansible-playbook', f10('noop')?.ratioAnsibleOverHostwire, (v) => v >= 20, (v) => `${v.toFixed(1)}x`);
  check('noop10_vs_floor', 'No-op re-run, 10 hosts, within 2x of the floor', f10('noop')?.ratioHostwireOverFloor, (v) => v <= 2, (v) => `${v.toFixed(2)}x the floor`);
  check('converge10_vs_ansible', 'First converge, 10 hosts, >= 5x faster than ansible-playbook', f10('converge')?.ratioAnsibleOverHostwire, (v) => v >= 5, (v) => `${v.toFixed(1)}x`);
  check('scale500_wall', '500 light hosts no-op under 15 s wall', s500?.wall.median, (v) => v < 15000, (v) => `${(v / 1000).toFixed(2)} s`);
  check('scale500_mem', '500 light hosts no-op under 400 MB controller memory (process tree: node + netns relay)', s500?.treeRssKb.median, (v) => v < 400 * 1024, (v) => `${(v / 1024).toFixed(0)} MB (main process ${((s500?.maxRssKb.median ?? 0) / 1024).toFixed(0)} MB)`);
  return { table: lines.join('\n'), targets: t, figures };
}
