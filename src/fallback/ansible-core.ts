// The controller's ansible-core, asked only when a task names a module hostwire has no native
// version of: which Python runs it (the shebang of ansible-playbook on PATH), where its package
// lives (ansible/modules, module_utils, the builtin routing table) and which sys.path entries hold
// ansible_collections (Ansible scans them: COLLECTIONS_SCAN_SYS_PATH). Native modules never get here.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { mkdirPrivateSync, writePrivateFileSync } from '../private-files.js';
import path from 'node:path';

export interface AnsibleCore {
  /** The interpreter ansible-core runs under. */
  python: string;
  /** Its `ansible` package directory (holds modules/, module_utils/, config/). */
  packageDir: string;
  version: string;
  /** sys.path entries of that Python that contain an ansible_collections directory. */
  sysPathCollections: string[];
}

const PROBE = [
  'import json, os, sys',
  'import ansible',
  'from ansible.release import __version__',
  'roots = [p for p in sys.path if p and os.path.isdir(os.path.join(p, "ansible_collections"))]',
  'print(json.dumps({"dir": os.path.dirname(ansible.__file__), "version": __version__, "roots": roots}))',
].join('\n');

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(':').filter(Boolean)) {
    const f = path.join(dir, name);
    if (executable(f)) return f;
  }
  return undefined;
}

/** The interpreter of a Python script's `#!` line (`#!/usr/bin/env python3` -> python3 on PATH). */
export function interpreterOf(shebang: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const m = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(shebang);
  if (!m) return undefined;
  if (path.basename(m[1]!) === 'env' && m[2]) return onPath(m[2], env);
  return m[1];
}

/** Candidate interpreters, best first: ansible-playbook's own, then the system's python3. */
function candidates(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  // Set: that interpreter only (a test, or a controller with several Pythons).
  if (env.HOSTWIRE_ANSIBLE_PYTHON) return [env.HOSTWIRE_ANSIBLE_PYTHON];
  for (const tool of ['ansible-playbook', 'ansible']) {
    const file = onPath(tool, env) ?? (executable(`/usr/bin/${tool}`) ? `/usr/bin/${tool}` : undefined);
    if (!file) continue;
    try {
      const py = interpreterOf(readFileSync(file, 'utf8').split('\n', 1)[0]!, env);
      if (py) out.push(py);
    } catch {
      // unreadable: try the next
    }
  }
  out.push('/usr/bin/python3');
  return [...new Set(out)];
}

let cached: { core?: AnsibleCore; tried: string[] } | undefined;

/** What the last probe found is kept on the controller while the interpreter, ansible-core's release file
 * and the folder holding its package (where new ansible_collections would appear) keep their mtimes. */
interface Remembered { core: AnsibleCore; stamps: [string, number][] }
const memoFile = (env: NodeJS.ProcessEnv) => path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'hostwire', 'ansible-core.json');
const mtime = (p: string) => { try { return statSync(p).mtimeMs; } catch { return -1; } };
const stampsOf = (core: AnsibleCore): [string, number][] =>
  [core.python, path.join(core.packageDir, 'release.py'), path.dirname(core.packageDir), ...core.sysPathCollections].map((p) => [p, mtime(p)]);

function remembered(env: NodeJS.ProcessEnv, python: string): AnsibleCore | undefined {
  try {
    const r = JSON.parse(readFileSync(memoFile(env), 'utf8')) as Remembered;
    return r.core.python === python && r.stamps.every(([p, m]) => mtime(p) === m) ? r.core : undefined;
  } catch {
    return undefined;
  }
}

function remember(env: NodeJS.ProcessEnv, core: AnsibleCore): void {
  try {
    mkdirPrivateSync(path.dirname(memoFile(env)));
    writePrivateFileSync(memoFile(env), JSON.stringify({ core, stamps: stampsOf(core) } satisfies Remembered));
  } catch {
    // not kept: probed again next time
  }
}

/** ansible-core as installed on this controller, or undefined with the interpreters tried. */
export function findAnsibleCore(env: NodeJS.ProcessEnv = process.env): { core?: AnsibleCore; tried: string[] } {
  if (cached && env === process.env) return cached;
  const tried: string[] = [];
  let core: AnsibleCore | undefined;
  for (const python of candidates(env)) {
    tried.push(python);
    core = remembered(env, python);
    if (core) break;
    try {
      const out = execFileSync(python, ['-c', PROBE], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] });
      const r = JSON.parse(out) as { dir: string; version: string; roots: string[] };
      core = { python, packageDir: r.dir, version: r.version, sysPathCollections: r.roots };
      remember(env, core);
      break;
    } catch {
      // not this one
    }
  }
  const found = { core, tried };
  if (env === process.env) cached = found;
  return found;
}
