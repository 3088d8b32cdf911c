// How each contender is started: hostwire (its CLI, --json for the exec counts), ansible-playbook
// (inside the lab namespace, bench/ansible/ansible.cfg), and the two fan-out floors.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { measure, type Measured } from './measure.js';

export const ROOT = path.resolve(new URL('../../..', import.meta.url).pathname);
// What users run: the package's bin (the bundled CLI, scripts/bundle.js).
export const CLI = path.join(ROOT, (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: { hostwire: string } }).bin.hostwire);
/** The ansible.cfg both tools read in the fallback suite (pipelining, ControlPersist=60s, ...). */
export const ANSIBLE_CFG = path.join(ROOT, 'bench/ansible/ansible.cfg');
export const FLOOR = path.join(ROOT, 'dist/src/bench/floor.js');

export interface HostwireRun extends Measured {
  changed: number;
  failed: number;
  /** Remote execs and payload bytes per host, from hostwire's own summary. */
  execs: Record<string, number>;
  bytesSent: Record<string, number>;
}

/** `netns`: run the CLI inside the lab's namespace, as ansible-playbook is run (its connections then need no relay). */
/** `config`: an ansible.cfg for hostwire to read (ANSIBLE_CONFIG), as ansible-playbook reads bench/ansible/ansible.cfg. */
export async function runHostwire(playbook: string, inventory: string, opts: { check?: boolean; forks?: number; netns?: string; config?: string } = {}): Promise<HostwireRun> {
  const argv = [...(opts.netns ? ['ip', 'netns', 'exec', opts.netns] : []), process.execPath, CLI, 'run', playbook, '-i', inventory, '--json', '-f', String(opts.forks ?? 50)];
  if (opts.check) argv.push('--check');
  const m = await measure({ argv, timeoutMs: 20 * 60_000, env: opts.config ? { ANSIBLE_CONFIG: opts.config } : undefined });
  const end = m.stdout.trim().split('\n').map((l) => { try { return JSON.parse(l); } catch { return {}; } }).find((e) => e.type === 'run_end');
  const stats = Object.values((end?.summary?.stats ?? {}) as Record<string, { changed: number; failed: number; unreachable: number }>);
  return {
    ...m,
    changed: stats.reduce((a, s) => a + s.changed, 0),
    failed: stats.reduce((a, s) => a + s.failed + s.unreachable, 0) + (end ? 0 : 1),
    execs: end?.summary?.execs ?? {},
    bytesSent: end?.summary?.bytesSent ?? {},
  };
}

export interface AnsibleRun extends Measured {
  changed: number;
  failed: number;
  /** Remote commands per host, counted from -vvv output (only when counted). */
  execs: Record<string, number>;
}

export async function runAnsible(playbook: string, inventory: string, netns: string, forks: number, opts: { check?: boolean; count?: boolean } = {}): Promise<AnsibleRun> {
  const argv = ['ip', 'netns', 'exec', netns, 'ansible-playbook', '-i', inventory, playbook, '-f', String(forks)];
  if (opts.check) argv.push('--check');
  if (opts.count) argv.push('-vvv');
  const m = await measure({
    argv,
    env: { ANSIBLE_CONFIG: path.join(ROOT, 'bench/ansible/ansible.cfg'), ANSIBLE_NOCOLOR: '1', ANSIBLE_FORCE_COLOR: '0', ANSIBLE_LOCAL_TEMP: '/tmp/hwbench-ansible-tmp', HOME: process.env.HOME ?? '/root' },
    timeoutMs: 30 * 60_000,
  });
  let changed = 0;
  let failed = 0;
  for (const l of m.stdout.split('\n')) {
    const r = /^\S+\s+: ok=\d+\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)/.exec(l);
    if (r) { changed += Number(r[1]); failed += Number(r[2]) + Number(r[3]); }
  }
  if (m.code !== 0 && failed === 0) failed = 1;
  const execs: Record<string, number> = {};
  if (opts.count) {
    // Every remote command ansible starts is logged as `<ip> SSH: EXEC ssh ...`.
    for (const l of m.stdout.split('\n')) {
      const r = /^<([^>]+)> SSH: EXEC ssh /.exec(l);
      if (r) execs[r[1]!] = (execs[r[1]!] ?? 0) + 1;
    }
  }
  return { ...m, changed, failed, execs };
}

export interface FloorTarget { netns?: string; keyFile: string; user: string; hosts: { host: string; port: number }[] }

export async function runFloor(target: FloorTarget, file: string): Promise<Measured> {
  writeFileSync(file, JSON.stringify(target));
  return measure({ argv: [process.execPath, FLOOR, file], timeoutMs: 5 * 60_000 });
}

/** OpenSSH, ControlMaster off, one connection per host in parallel, from inside the namespace. */
export async function runOpensshFloor(target: FloorTarget, knownHosts: string): Promise<Measured> {
  const ssh = `ssh -o ControlMaster=no -o ControlPath=none -o BatchMode=yes -o IdentitiesOnly=yes -i ${target.keyFile} -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes`;
  const script = target.hosts.map((h) => `${ssh} -p ${h.port} ${target.user}@${h.host} true &`).join('\n') + '\nwait';
  const argv = target.netns ? ['ip', 'netns', 'exec', target.netns, 'sh', '-c', script] : ['sh', '-c', script];
  return measure({ argv, timeoutMs: 5 * 60_000 });
}
