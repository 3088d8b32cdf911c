// The CLI's lock wait: SIGTERM (or SIGINT) while another run holds a host's lock ends the run at
// once with the recap and exit 99 (it was ignored: the wait went on forever); the wait names the
// holder; --lock-timeout is validated.
import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireHostLock, LocalTransport } from '../../src/transports/index.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} during a lock wait ends the run at once: recap, exit 99`, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'h3-cli-lock-'));
    const name = `h3sig${process.pid}${signal}`;
    const lock = await acquireHostLock(new LocalTransport(name), { file: `local-${name}.lock` });
    t.teardown(async () => {
      await lock.release();
      rmSync(`/run/hostwire/local-${name}.lock`, { force: true });
      rmSync(dir, { recursive: true, force: true });
    });
    writeFileSync(path.join(dir, 'inv.ini'), `${name} ansible_connection=local\n`);
    writeFileSync(path.join(dir, 'site.yml'), '- hosts: all\n  gather_facts: false\n  tasks:\n    - command: "true"\n');
    const child = spawn(process.execPath, [CLI, 'run', path.join(dir, 'site.yml'), '-i', path.join(dir, 'inv.ini'), '--no-live'], { stdio: ['ignore', 'pipe', 'pipe'] });
    t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    for (let i = 0; i < 300 && !out.includes('waiting for another hostwire run'); i++) await new Promise((r) => setTimeout(r, 100));
    t.regex(out, new RegExp(`waiting for another hostwire run to release ${name} \\(held by hostwire on .* pid ${process.pid} user \\S+ since \\S+ host pid \\d+\\); giving up after 600 s`));
    const t0 = Date.now();
    child.kill(signal);
    t.is(await exited, 99, err);
    t.true(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
    t.regex(out, /PLAY RECAP/);
    t.regex(out, /Run interrupted: no new tasks were started\./);
  });
}

test('--lock-timeout must be a number of seconds above 0', async (t) => {
  for (const bad of ['0', '-5', 'soon', '1e3']) {
    const r = await new Promise<{ code: number | null; err: string }>((resolve) => {
      execFile(process.execPath, [CLI, 'run', 'x.yml', '-i', 'y', `--lock-timeout=${bad}`], (e, _o, err) => resolve({ code: e ? (e as { code?: number }).code ?? 1 : 0, err }));
    });
    t.is(r.code, 5, bad);
    t.regex(r.err, new RegExp(`--lock-timeout: expected a number of seconds above 0, got '${bad}'`));
  }
});
