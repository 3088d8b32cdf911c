// The `hostwire` bin is an esbuild bundle of the compiled CLI (scripts/bundle.js); the other CLI
// tests run dist/src/cli/main.js. This runs the bundle itself: a local play with a template
// (nunjucks, loaded from node_modules), files and a command converges, then changes nothing.
import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string; bin: { hostwire: string } };
const BIN = path.join(root, pkg.bin.hostwire);

const hostwire = (args: string[]) => new Promise<{ code: number; out: string }>((resolve) =>
  execFile(process.execPath, [BIN, ...args], (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr })));

test('the bundled bin prints its version and runs a play idempotently', async (t) => {
  t.regex(pkg.bin.hostwire, /^dist\/bundle\//);
  t.is((await hostwire(['--version'])).out.trim(), pkg.version);
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-bundle-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 't.j2'), '{% for n in names %}{{ n | upper }}\n{% endfor %}');
  writeFileSync(path.join(dir, 'play.yml'), `- hosts: all
  gather_facts: false
  vars: { out: "${dir}/out", names: [a, b] }
  tasks:
    - file: { path: "{{ out }}", state: directory, mode: "0755" }
    - template: { src: t.j2, dest: "{{ out }}/t.conf", mode: "0644" }
    - copy: { dest: "{{ out }}/c", content: "x\\n" }
    - lineinfile: { path: "{{ out }}/l", line: "y", create: true }
    - command: { cmd: "touch {{ out }}/done", creates: "{{ out }}/done" }
`);
  const run = (extra: string[] = []) => hostwire(['run', '-c', 'local', '-i', 'localhost,', path.join(dir, 'play.yml'), '--no-live', ...extra]);
  const first = await run();
  t.is(first.code, 0, first.out);
  t.regex(first.out, /localhost\s+: ok=5\s+changed=5\s+unreachable=0\s+failed=0/);
  t.is(readFileSync(path.join(dir, 'out/t.conf'), 'utf8'), 'A\nB\n');
  const again = await run(['--check']);
  t.regex(again.out, /localhost\s+: ok=5\s+changed=0\s+unreachable=0\s+failed=0/, again.out);
});

test('a reader that stops early ends the output quietly (status 141, no EPIPE stack trace)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-epipe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // ~1 MB of --list output: far more than a pipe buffers.
  writeFileSync(path.join(dir, 'inv.yml'), `all:\n  hosts:\n    node[0001:3000]:\n      note: "${'a'.repeat(200)}"\n`);
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'inventory', '-i', path.join(dir, 'inv.yml'), '--list'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('close', (code) => resolve({ code, stderr }));
  });
  t.is(r.code, 141);
  t.is(r.stderr, '');
});

test('the host scripts ship beside the bundle, as in src/ (the bundled ovs_gateway reads them when it loads)', (t) => {
  const scripts = ['apply', 'state', 'check', 'txn'].map((p) => `configure-ovs-${p}.sh`);
  for (const name of scripts) {
    const shipped = readFileSync(path.join(path.dirname(BIN), name), 'utf8');
    t.is(shipped, readFileSync(path.join(root, 'src/modules/ovs_gateway/script', name), 'utf8'), name);
  }
});
