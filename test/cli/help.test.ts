// Every command and subcommand of the real CLI has an "Examples:" section in its --help. The command
// tree is read from `hostwire completion bash` (generated from the commander program), so a new
// command without examples fails here.
import test from 'ava';
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const help = (words: string[]) => new Promise<{ code: number; out: string }>((resolve) =>
  execFile(process.execPath, [CLI, ...words, '--help'], (err, out) => resolve({ code: err ? Number(err.code ?? 1) : 0, out })));

test('every command has --help with examples', async (t) => {
  const script = execFileSync(process.execPath, [CLI, 'completion', 'bash'], { encoding: 'utf8' });
  const paths = [...script.matchAll(/^ {4}'([a-z -]*)'\)$/gm)].map((m) => m[1]!);
  for (const c of ['', 'run', 'lab', 'lab up', 'vault encrypt-string', 'test', 'completion']) t.true(paths.includes(c), `command '${c}' listed`);
  t.true(paths.length >= 20, `${paths.length} commands`);
  // A few at a time: each is a node start.
  for (let i = 0; i < paths.length; i += 4) {
    const batch = paths.slice(i, i + 4);
    const outs = await Promise.all(batch.map((p) => help(p ? p.split(' ') : [])));
    outs.forEach((r, j) => {
      const name = `hostwire ${batch[j]}`.trim();
      t.is(r.code, 0, `${name} --help exits 0`);
      t.true(r.out.startsWith(`Usage: ${name}`), `${name}: ${r.out.slice(0, 80)}`);
      const ex = r.out.split('\nExamples:\n')[1];
      t.truthy(ex, `${name} --help has Examples:`);
      // Examples are runnable lines of this CLI.
      t.regex(ex ?? '', /^ {2}(\S+=\S+ )?(source <\()?hostwire /m, `${name} examples show hostwire commands`);
    });
  }
});
