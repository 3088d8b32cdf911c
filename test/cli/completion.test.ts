// `hostwire completion bash`: the generated script is sourced in a real bash, and the completion
// function is called the way bash calls it on <TAB> (COMP_WORDS/COMP_CWORD), asserting candidates.
import test from 'ava';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'hw-compl-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const script = path.join(dir, 'hostwire.bash');
writeFileSync(script, execFileSync(process.execPath, [CLI, 'completion', 'bash'], { encoding: 'utf8' }));
writeFileSync(path.join(dir, 'site.yml'), '- hosts: all\n  tasks: []\n');
writeFileSync(path.join(dir, 'sriov.yaml'), '- hosts: all\n  tasks: []\n');
writeFileSync(path.join(dir, 'notes.txt'), 'not a playbook\n');
for (const s of ['default', 'microshift']) {
  mkdirSync(path.join(dir, 'molecule', s), { recursive: true });
  writeFileSync(path.join(dir, 'molecule', s, 'scenario.yml'), 'hosts: []\n');
}
mkdirSync(path.join(dir, 'molecule', 'not-a-scenario'));

/** Candidates for the command line `words`, the cursor on the last word. */
function complete(words: string[]): Promise<string[]> {
  const arr = words.map((w) => `'${w}'`).join(' ');
  const code = `source ${script}; COMP_WORDS=(${arr}); COMP_CWORD=${words.length - 1}; _hostwire_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return new Promise((resolve, reject) => execFile('bash', ['--norc', '-c', code], { cwd: dir }, (err, out, stderr) =>
    err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out.split('\n').filter(Boolean).sort())));
}

test('top-level commands', async (t) => {
  t.deepEqual(await complete(['hostwire', 'ru']), ['run']);
  const all = await complete(['hostwire', '']);
  for (const c of ['run', 'inventory', 'facts', 'lab', 'test', 'vault', 'init', 'graph', 'subnets', 'completion']) t.true(all.includes(c), c);
  t.deepEqual(await complete(['hostwire', '--ver']), ['--version']);
});

test('options of a command', async (t) => {
  t.deepEqual(await complete(['hostwire', 'run', '--che']), ['--check']);
  t.deepEqual(await complete(['hostwire', 'run', 'site.yml', '-i', 'inv.yml', '--list-']), ['--list-hosts', '--list-tasks']);
  // An option of another command is not offered.
  t.deepEqual(await complete(['hostwire', 'test', '--che']), []);
});

test('subcommands and their options', async (t) => {
  const lab = await complete(['hostwire', 'lab', '']);
  for (const c of ['up', 'down', 'ls', 'ssh', 'inventory', 'reboot']) t.true(lab.includes(c), c);
  t.deepEqual(await complete(['hostwire', 'lab', 'up', '--h']), ['--help', '--hosts']);
  t.deepEqual(await complete(['hostwire', 'vault', 'encrypt-']), ['encrypt-string']);
});

test('playbook files for run, scenario names for test', async (t) => {
  t.deepEqual(await complete(['hostwire', 'run', '']), ['molecule', 'site.yml', 'sriov.yaml']);
  t.deepEqual(await complete(['hostwire', 'run', 's']), ['site.yml', 'sriov.yaml']);
  t.deepEqual(await complete(['hostwire', 'test', '']), ['default', 'microshift']);
  t.deepEqual(await complete(['hostwire', 'test', '--keep', 'mi']), ['microshift']);
});

test('option values: files, or the choices', async (t) => {
  t.deepEqual(await complete(['hostwire', 'run', 'site.yml', '-i', 'no']), ['notes.txt']);
  t.deepEqual(await complete(['hostwire', 'completion', '']), ['hostwire.bash', 'molecule', 'notes.txt', 'site.yml', 'sriov.yaml']);
});

test('zsh script loads the same function through bashcompinit', async (t) => {
  const z = execFileSync(process.execPath, [CLI, 'completion', 'zsh'], { encoding: 'utf8' });
  t.true(z.startsWith('#compdef hostwire'));
  t.regex(z, /bashcompinit/);
  t.regex(z, /complete -o filenames -F _hostwire_complete hostwire/);
});
