// `hostwire inventory --list` with inline !vault values: without a password the value is shown as
// ansible-inventory shows it ({"__ansible_vault": "<ciphertext>"}); with the vault options it is
// decrypted (and masked, as every secret is).
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encryptVault } from '../../src/vault/index.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');

function run(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: cwd, ANSIBLE_CONFIG: '' };
    delete env.HOSTWIRE_VAULT_PASSWORD;
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, out, err })));
  });
}

function project(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'h10inv-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const envelope = encryptVault('s3cret-value', 'pw-h10');
  const indented = envelope.trimEnd().split('\n').map((l) => `        ${l}`).join('\n');
  writeFileSync(path.join(dir, 'inv.yml'), `all:\n  hosts:\n    h10a:\n      db_pass: !vault |\n${indented}\n      plain: 1\n`);
  writeFileSync(path.join(dir, 'pw.txt'), 'pw-h10\n', { mode: 0o600 });
  return { dir, envelope };
}

test('inventory --list without a password prints {"__ansible_vault": ciphertext} as ansible-inventory does', async (t) => {
  const p = project(t);
  const r = await run(['inventory', '-i', 'inv.yml', '--list'], p.dir);
  t.is(r.code, 0, r.err);
  const data = JSON.parse(r.out) as { _meta: { hostvars: Record<string, Record<string, unknown>> } };
  const v = data._meta.hostvars.h10a!;
  t.is(v.plain, 1);
  t.deepEqual(v.db_pass, { __ansible_vault: p.envelope.trimEnd() + '\n' });
  t.false(r.out.includes('s3cret-value'));
});

test('inventory --list takes --vault-password-file (and ansible.cfg vault_password_file): the value is decrypted, masked on output', async (t) => {
  const p = project(t);
  const r = await run(['inventory', '-i', 'inv.yml', '--list', '--vault-password-file', 'pw.txt'], p.dir);
  t.is(r.code, 0, r.err);
  const v = (JSON.parse(r.out) as { _meta: { hostvars: Record<string, Record<string, unknown>> } })._meta.hostvars.h10a!;
  t.is(typeof v.db_pass, 'string');
  t.false(r.out.includes('s3cret-value'), 'a secret never printed');
  t.false(r.out.includes('__ansible_vault'));
  const wrong = await run(['inventory', '-i', 'inv.yml', '--list', '--vault-password-file', 'inv.yml'], p.dir);
  t.not(wrong.code, 0, 'a wrong password is an error, not ciphertext');
  t.regex(wrong.err, /inv\.yml/);
  writeFileSync(path.join(p.dir, 'ansible.cfg'), '[defaults]\ninventory = inv.yml\nvault_password_file = pw.txt\n');
  const viaCfg = await run(['inventory', '--host', 'h10a'], p.dir);
  t.is(viaCfg.code, 0, viaCfg.err);
  t.is(typeof (JSON.parse(viaCfg.out) as Record<string, unknown>).db_pass, 'string');
});
