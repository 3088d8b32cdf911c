// The bench takes down what it started however it ends: here its reader goes away (`bench | head -1`)
// while the scale suite's light sshd hosts come up - an EPIPE used to end it at once and leave 200
// sshd processes and the hwb-benchs namespace behind.
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/bench/main.js', import.meta.url));
const netnsList = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
const lightSshds = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((l) => /^sshd: .*hwbench-.*\/light\//.test(l));

test.serial('a reader that stops after the first line: cleanup, exit 141, no light host or namespace left', async (t) => {
  t.timeout(120_000);
  t.notRegex(netnsList(), /^hwb-benchs\b/m, 'no bench running already');
  const out = mkdtempSync(path.join(tmpdir(), 'hw-bench-out-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const child = spawn('node', [MAIN, '--no-labs', '--no-fallback', '--scale', '3', '--ansible-scale', '1', '--scale-runs', '1', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.is(code, 141, stderr);
  t.regex(stderr, /output closed \(EPIPE\), cleaning up/);
  t.deepEqual(lightSshds(), []);
  t.notRegex(netnsList(), /^hwb-benchs\b/m);
  t.deepEqual(readdirSync(out), [], 'no results written');
});
