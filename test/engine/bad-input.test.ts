// The broken-input corpus: every case must end in one clear message naming the place and what was
// expected, with exit code 5 (or 2 where Ansible fails the host at run time), and never a stack trace.
import test from 'ava';
import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const corpus = path.join(root, 'test/engine/bad-input');
const cli = path.join(root, 'dist/src/cli/main.js');
const RUNTIME = new Set(['undefined-var', 'bad-loop']);

const inv = mkdtempSync(path.join(tmpdir(), 'hw-bad-'));
writeFileSync(path.join(inv, 'inv.ini'), '[nodes]\nlocalhost ansible_connection=local\n');
test.after.always(() => rmSync(inv, { recursive: true, force: true }));

for (const name of readdirSync(corpus).sort()) {
  test(`bad input: ${name}`, async (t) => {
    const expected = readFileSync(path.join(corpus, name, 'expect.txt'), 'utf8').trim();
    const playbook = path.join(corpus, name, 'site.yml');
    const r = await execa('node', [cli, 'run', existsSync(playbook) ? playbook : path.join(corpus, name, 'missing.yml'), '-i', path.join(inv, 'inv.ini'), '--no-live'], { reject: false, cwd: path.join(corpus, name) });
    const out = `${r.stdout}\n${r.stderr}`;
    t.is(r.exitCode, RUNTIME.has(name) ? 2 : 5, out);
    t.true(out.includes(expected), `expected "${expected}" in:\n${out}`);
    t.false(/\n\s+at .+:\d+:\d+\)?\n/.test(out), `stack trace leaked:\n${out}`);
  });
}

test('bad inventory and options: clear errors, exit 5', async (t) => {
  const bad = path.join(inv, 'bad.yml');
  writeFileSync(bad, 'all:\n  hosts:\n    a: {ansible_host: [1\n');
  const r = await execa('node', [cli, 'inventory', '-i', bad, '--list'], { reject: false });
  t.is(r.exitCode, 5);
  t.regex(r.stderr, /bad\.yml:\d+/);
  const opt = await execa('node', [cli, 'run', '--forks'], { reject: false });
  t.is(opt.exitCode, 5);
});

test('an unreadable key file names the file', async (t) => {
  const i = path.join(inv, 'key.ini');
  writeFileSync(i, '[n]\nbox ansible_host=127.0.0.1 ansible_port=1 ansible_ssh_private_key_file=/nonexistent/key\n');
  const pb = path.join(inv, 'pb.yml');
  // A task that needs the host (debug runs on the controller without connecting, as in Ansible).
  writeFileSync(pb, '- hosts: n\n  gather_facts: false\n  tasks:\n    - command: "true"\n');
  const r = await execa('node', [cli, 'run', pb, '-i', i, '--no-live'], { reject: false });
  t.true(`${r.stdout}${r.stderr}`.includes('/nonexistent/key'), r.stdout + r.stderr);
  t.not(r.exitCode, 0);
});
