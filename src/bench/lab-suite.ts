// The side-by-side suite on real lab hosts: per sample, a FRESH lab for each tool (so every
// "first converge" really starts from a new host), then converge, the shared verify, a no-op
// re-run and a --check run on the converged hosts, and both fan-out floors.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { labDown, labInventoryYaml, labUp, type LabState } from '../lab/index.js';
import { onCleanup } from './cleanup.js';
import type { Measured } from './measure.js';
import { ROOT, runAnsible, runFloor, runHostwire, runOpensshFloor, type FloorTarget } from './tools.js';

export type Phase = 'converge' | 'noop' | 'check';
export type Tool = 'hostwire' | 'ansible' | 'floor_ssh2' | 'floor_openssh';

export interface Sample extends Measured {
  tool: Tool;
  phase: Phase | 'floor';
  hosts: number;
  changed?: number;
  /** Per-host remote execs (hostwire: its summary; ansible: -vvv count runs) and bytes. */
  execsPerHost?: number;
  bytesPerHost?: number;
  /** Bytes the host received on its link during the run (SSH on the wire, all tools alike). */
  wireBytesPerHost?: number;
}

export interface SuiteResult {
  hosts: number;
  samples: Sample[];
  /** hostwire --check on hosts that ansible converged: 0 changes = both did the same work. */
  crossCheckChanged: number[];
  verifyFailures: string[];
  ansibleExecsPerHost?: Partial<Record<Phase, number>>;
}

const HW_PLAY = path.join(ROOT, 'bench/hostwire/node-prep.yml');
const VERIFY = path.join(ROOT, 'bench/hostwire/verify.yml');
const AN_PLAY = path.join(ROOT, 'bench/ansible/node-prep.yml');

function wireBytes(state: LabState): number {
  const j = JSON.parse(execFileSync('ip', ['-n', state.netns, '-s', '-j', 'link'], { encoding: 'utf8' })) as { ifname: string; stats64?: { tx: { bytes: number } } }[];
  const mine = new Set(state.hosts.map((h) => h.veth));
  return j.filter((l) => mine.has(l.ifname)).reduce((a, l) => a + (l.stats64?.tx.bytes ?? 0), 0);
}

async function withWire<T extends Measured>(state: LabState, run: () => Promise<T>): Promise<T & { wireBytesPerHost: number }> {
  const before = wireBytes(state);
  const r = await run();
  return { ...r, wireBytesPerHost: (wireBytes(state) - before) / state.hosts.length };
}

const perHost = (m: Record<string, number>) => {
  const v = Object.values(m);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : undefined;
};

export interface SuiteOptions {
  lab: string;
  hosts: number;
  runs: number;
  workDir: string;
  log: (s: string) => void;
  /** Count ansible's remote commands with an extra -vvv converge/no-op/check (untimed). */
  countAnsible: boolean;
}

async function freshLab(o: SuiteOptions): Promise<{ state: LabState; inventory: string; target: FloorTarget }> {
  await labDown(o.lab).catch(() => undefined);
  const up = await labUp({ name: o.lab, hosts: o.hosts });
  const inventory = path.join(o.workDir, `${o.lab}.yml`);
  writeFileSync(inventory, labInventoryYaml(up.state));
  const target: FloorTarget = { netns: up.state.netns, keyFile: up.state.keyFile, user: 'root', hosts: up.state.hosts.map((h) => ({ host: h.ip, port: 22 })) };
  return { state: up.state, inventory, target };
}

export async function runLabSuite(o: SuiteOptions): Promise<SuiteResult> {
  const forget = onCleanup(async () => { await labDown(o.lab).catch(() => undefined); });
  const res: SuiteResult = { hosts: o.hosts, samples: [], crossCheckChanged: [], verifyFailures: [] };
  const add = (s: Sample) => {
    res.samples.push(s);
    o.log(`  ${o.hosts} hosts ${s.tool.padEnd(13)} ${s.phase.padEnd(8)} ${(s.wallMs / 1000).toFixed(2)} s wall, ${(s.cpuMs / 1000).toFixed(2)} s cpu${s.changed !== undefined ? `, changed=${s.changed}` : ''}${s.code ? ` EXIT ${s.code}` : ''}`);
    if (s.code !== 0) o.log(`    ${(s.stderr || s.stdout).trim().split('\n').slice(-5).map((l) => l.slice(0, 300)).join('\n    ')}`);
  };
  const verify = async (inventory: string, who: string) => {
    const v = await runHostwire(VERIFY, inventory);
    if (v.code !== 0 || v.failed) {
      const bad = v.stdout.split('\n').map((l) => { try { return JSON.parse(l); } catch { return {}; } }).filter((e) => e.type === 'host_result' && e.status === 'failed');
      res.verifyFailures.push(`${who}: ${bad.length} host(s) failed verify (${bad[0]?.host}: ${String(bad[0]?.msg ?? v.stderr).slice(0, 600)})`);
    }
  };
  const floors = async (lab: { state: LabState; target: FloorTarget }) => {
    add({ ...(await withWire(lab.state, () => runFloor(lab.target, path.join(o.workDir, 'floor.json')))), tool: 'floor_ssh2', phase: 'floor', hosts: o.hosts });
    add({ ...(await withWire(lab.state, () => runOpensshFloor(lab.target, lab.state.knownHostsFile))), tool: 'floor_openssh', phase: 'floor', hosts: o.hosts });
  };
  for (let i = 0; i < o.runs; i++) {
    o.log(`${o.hosts} hosts, sample ${i + 1}/${o.runs}`);
    // hostwire
    let lab = await freshLab(o);
    for (const phase of ['converge', 'noop', 'check'] as Phase[]) {
      const r = await withWire(lab.state, () => runHostwire(HW_PLAY, lab.inventory, { check: phase === 'check' }));
      add({ ...r, tool: 'hostwire', phase, hosts: o.hosts, execsPerHost: perHost(r.execs), bytesPerHost: perHost(r.bytesSent) });
      if (phase === 'converge') await verify(lab.inventory, `hostwire sample ${i + 1}`);
    }
    await floors(lab);
    // ansible-playbook
    lab = await freshLab(o);
    for (const phase of ['converge', 'noop', 'check'] as Phase[]) {
      const r = await withWire(lab.state, () => runAnsible(AN_PLAY, lab.inventory, lab.state.netns, o.hosts, { check: phase === 'check' }));
      add({ ...r, tool: 'ansible', phase, hosts: o.hosts });
      if (phase === 'converge') {
        await verify(lab.inventory, `ansible sample ${i + 1}`);
        const x = await runHostwire(HW_PLAY, lab.inventory, { check: true });
        res.crossCheckChanged.push(x.changed);
      }
    }
    await floors(lab);
  }
  if (o.countAnsible) {
    o.log(`${o.hosts} hosts: counting ansible's remote commands (-vvv, untimed)`);
    const lab = await freshLab(o);
    res.ansibleExecsPerHost = {};
    for (const phase of ['converge', 'noop', 'check'] as Phase[]) {
      const r = await runAnsible(AN_PLAY, lab.inventory, lab.state.netns, o.hosts, { check: phase === 'check', count: true });
      res.ansibleExecsPerHost[phase] = perHost(r.execs);
    }
  }
  await labDown(o.lab).catch(() => undefined);
  forget();
  return res;
}
