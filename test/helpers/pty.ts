// Drives `hostwire` through a real pseudo-terminal (python3's pty module, test/init/pty-drive.py): each
// step waits for a regex in the output, then types its text.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const DRIVER = fileURLToPath(new URL('../../../test/init/pty-drive.py', import.meta.url));

export interface Drive { code: number; output: string; failed_step: number | null }

/** Runs `hostwire ARGS` in `cwd` on a terminal; the spec file is written to `cwd`. */
export function drive(cwd: string, args: string[], steps: [string, string][]): Promise<Drive> {
  const spec = path.join(cwd, `spec-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(spec, JSON.stringify({ cmd: [process.execPath, CLI, ...args], cwd, steps }));
  return new Promise((resolve, reject) => {
    execFile('python3', [DRIVER, spec], { timeout: 120_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as Drive)));
  });
}
