// A planted secret must never appear in any output: plain, -vvv, --diff, --check, --json, the live
// (TTY) view, error messages with stack traces, the HTML report, the retry file and
// `hostwire inventory`. Three secrets are planted: a vault-encrypted vars file, an inline !vault
// value in group_vars, and a plain var marked with hostwire_secret_vars. The test also proves the
// run really used them (the file written on the "host" holds the real values).
import test from 'ava';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const fx = (n: string) => fileURLToPath(new URL(`../../../test/vault/fixtures/${n}`, import.meta.url));
const SECRETS = ['Hunter2-planted-SECRET', 'Inline-Planted-Secret-42', 'Plain-Marked-Secret-77', 'tok-7f3a9c1e55d2'];
const dir = mkdtempSync(path.join(tmpdir(), 'hw-mask-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

interface Out { code: number; out: string }
function sh(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Out> {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...env };
  delete base.HOSTWIRE_VAULT_PASSWORD;
  if (env.HOSTWIRE_VAULT_PASSWORD) base.HOSTWIRE_VAULT_PASSWORD = env.HOSTWIRE_VAULT_PASSWORD;
  return new Promise((resolve) => {
    execFile(file, args, { cwd: dir, env: base, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }));
  });
}
const hostwire = (args: string[], env?: NodeJS.ProcessEnv) => sh(process.execPath, [CLI, ...args], env);
const PW = ['--vault-password-file', fx('vault-pass.txt')];

test.before(() => {
  copyFileSync(fx('secrets.vault.yml'), path.join(dir, 'secrets.vault.yml'));
  mkdirSync(path.join(dir, 'group_vars'));
  copyFileSync(fx('inline.yml'), path.join(dir, 'group_vars', 'nodes.yml'));
  writeFileSync(path.join(dir, 'inv.ini'), `[nodes]\nh1 ansible_connection=local\n[nodes:vars]\napi_key=Plain-Marked-Secret-77\nhostwire_secret_vars=['api_key']\n`);
  const tasks = `
- hosts: nodes
  gather_facts: false
  vars_files: [secrets.vault.yml]
  tasks:
    - name: show
      debug:
        msg: "db={{ db_password }} inline={{ ssh_secret }} key={{ api_key }} tok={{ api_token }}"
    - name: write
      copy:
        content: "{{ db_password }}\\n{{ ssh_secret }}\\n{{ api_key }}\\n"
        dest: ${dir}/out-{{ ansible_check_mode }}.txt
    - name: echo
      command: echo {{ db_password }} {{ api_key }}
`;
  writeFileSync(path.join(dir, 'site.yml'), tasks + `    - name: fail with stderr
      shell: "echo {{ ssh_secret }} >&2; exit 3"
`);
  writeFileSync(path.join(dir, 'bad.yml'), tasks + `    - name: bad delegate
      debug: { msg: hi }
      delegate_to: "{{ db_password }}"
`);
});

function assertClean(t: import('ava').ExecutionContext, label: string, text: string): void {
  for (const s of SECRETS) t.false(text.includes(s), `${label} leaks ${s}:\n${text}`);
  t.true(text.includes("********"), `${label} shows the mask:\n${text}`);
}

test.serial('every output mode masks the planted secrets', async (t) => {
  const modes: [string, string[], NodeJS.ProcessEnv?][] = [
    ['plain', ['run', 'site.yml', '-i', 'inv.ini', ...PW]],
    ['-vvv --diff', ['run', 'site.yml', '-i', 'inv.ini', ...PW, '-vvv', '--diff']],
    ['--check --diff', ['run', 'site.yml', '-i', 'inv.ini', ...PW, '--check', '--diff', '-v']],
    ['--json -vvv --diff', ['run', 'site.yml', '-i', 'inv.ini', ...PW, '--json', '-vvv', '--diff']],
    ['env password, error with stack', ['run', 'bad.yml', '-i', 'inv.ini', '-vvv'], { HOSTWIRE_VAULT_PASSWORD: 'correct horse battery staple' }],
    ['inventory --list', ['inventory', '-i', 'inv.ini', '--list'], { HOSTWIRE_VAULT_PASSWORD: 'correct horse battery staple' }],
    ['inventory --host', ['inventory', '-i', 'inv.ini', '--host', 'h1'], { HOSTWIRE_VAULT_PASSWORD: 'correct horse battery staple' }],
  ];
  for (const [label, args, env] of modes) {
    const r = await hostwire(args, env);
    assertClean(t, label, r.out);
    if (label.startsWith('--json')) t.true(r.out.split('\n').filter(Boolean).every((l) => JSON.parse(l)), 'still valid JSON lines');
  }
  // The run used the real values: the host file holds them.
  t.is(readFileSync(path.join(dir, 'out-False.txt'), 'utf8'), 'Hunter2-planted-SECRET\nInline-Planted-Secret-42\nPlain-Marked-Secret-77\n');
  t.false(existsSync(path.join(dir, 'out-True.txt')), '--check wrote nothing');
  t.true(existsSync(path.join(dir, 'site.retry')));
  assertClean(t, 'retry file', readFileSync(path.join(dir, 'site.retry'), 'utf8') + '********');
});

test.serial('the live TTY view (through a pseudo-terminal) masks them too', async (t) => {
  const cmd = [process.execPath, CLI, 'run', 'site.yml', '-i', 'inv.ini', ...PW, '--diff'].map((a) => `'${a}'`).join(' ');
  const r = await sh('script', ['-qec', cmd, '/dev/null'], { TERM: 'xterm', CI: '' });
  t.regex(r.out, /TASK \[write\]/);
  assertClean(t, 'live', r.out);
});

test.serial('the HTML report masks them', async (t) => {
  const report = path.join(dir, 'r.html');
  await hostwire(['run', 'site.yml', '-i', 'inv.ini', ...PW, '--diff', '-vvv', '--report', report]);
  assertClean(t, 'report', readFileSync(report, 'utf8'));
  const bad = path.join(dir, 'bad.html');
  await hostwire(['run', 'bad.yml', '-i', 'inv.ini', ...PW, '--report', bad]);
  const html = readFileSync(bad, 'utf8');
  // A delegate outside the inventory fails the task (as Ansible cannot reach it), its message naming the secret.
  t.regex(html, /delegate_to: &#39;\*{8}&#39; is not in the inventory|delegate_to: '\*{8}' is not in the inventory/);
  assertClean(t, 'report of a failed task', html);
});

test.serial('no password: a clear error naming the encrypted file, never a prompt', async (t) => {
  const r = await hostwire(['run', 'site.yml', '-i', 'inv.ini']);
  t.is(r.code, 5);
  t.regex(r.out, /ERROR! .*group_vars\/nodes\.yml:1:\d+: this !vault value is encrypted with ansible-vault but no vault password was given; give the password with --vault-password-file FILE, the HOSTWIRE_VAULT_PASSWORD environment variable or --ask-vault-pass/);
  const r2 = await hostwire(['run', 'site.yml', '-i', 'inv.ini', '--ask-vault-pass']);
  t.is(r2.code, 5);
  t.regex(r2.out, /--ask-vault-pass needs a terminal/);
});
