// End to end: `hostwire run` in a project whose ansible.cfg alone says where the inventory and roles
// are, which user and key to log in with and how many hosts at once - against a real sshd on
// 127.0.0.1 (test/transports/sshd-fixture), the CLI started as a user starts it.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSshd } from '../transports/sshd-fixture.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    // Its own deadline, below ava's: a hang is a failure, never a stuck suite.
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, out, err })));
  });
}

test('a real run takes inventory, roles_path, remote_user and private_key_file from ./ansible.cfg', async (t) => {
  t.timeout(120_000);
  const sshd = await startSshd();
  t.teardown(() => sshd.stop());
  const dir = mkdtempSync(path.join(tmpdir(), 'h10cfg-e2e-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  // No ansible_user, no key, no -i, no --roles-path, no -f: only the config says.
  write('inv/hosts.ini', `[nodes]\nh10cfga ansible_host=127.0.0.1 ansible_port=${sshd.port}\n`);
  write('ansible.cfg', [
    '[defaults]', 'inventory = inv/hosts.ini   ; relative to this file', 'roles_path = ./myroles', 'forks = 1',
    'remote_user = root', `private_key_file = ${sshd.keyFile}`, 'timeout = 15', 'gathering = explicit',
    '[hostwire]', 'host_key_checking = off', '',
  ].join('\n'));
  write('myroles/probe/tasks/main.yml', [
    '- name: who am I', '  command: id -un', '  register: who',
    '- name: the user', '  debug: var=who.stdout', '',
  ].join('\n'));
  write('site.yml', '- hosts: nodes\n  roles:\n    - probe\n');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, ANSIBLE_CONFIG: '' };
  for (const k of Object.keys(env)) if (k.startsWith('ANSIBLE_') && k !== 'ANSIBLE_CONFIG') delete env[k];
  const r = await run(['run', 'site.yml', '--json'], dir, env);
  t.is(r.code, 0, r.out + r.err);
  const events = r.out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; task?: { name?: string }; result?: { host: string; status: string; stdout?: string } });
  const results = events.filter((e) => e.type === 'host_result');
  const who = results.filter((e) => e.task?.name === 'who am I');
  t.deepEqual(who.map((e) => e.result?.stdout), ['root'], 'remote_user and private_key_file logged in as root');
  // A bad forks value in the same file stops the run: proof the run reads it (forks' merge is unit-tested).
  write('ansible.cfg', '[defaults]\ninventory = inv/hosts.ini\nforks = 0\n');
  const bad = await run(['run', 'site.yml', '--json'], dir, env);
  t.is(bad.code, 5);
  t.regex(bad.err, /ansible\.cfg:3: \[defaults\] forks is '0'; expected a whole number >= 1/);
  t.false(events.some((e) => e.type === 'task_start' && /gathering facts/i.test(e.task?.name ?? '')), 'gathering = explicit: no implicit fact gathering');
});

test('a bad ansible.cfg value stops the run before anything connects: exit 5, file:line, the expected form', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'h10cfg-bad-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'ansible.cfg'), '[defaults]\n# forks\nforks = lots\n');
  writeFileSync(path.join(dir, 'site.yml'), '- hosts: all\n  tasks: []\n');
  const r = await run(['run', 'site.yml'], dir, { ...process.env, HOME: dir, ANSIBLE_CONFIG: '' });
  t.is(r.code, 5);
  t.true(r.err.includes(`${path.join(dir, 'ansible.cfg')}:3: [defaults] forks is 'lots'; expected a whole number >= 1`), r.err);
  t.false(r.err.includes('    at '), 'no stack trace');
});
