// The runner's batches merge the reads many tasks make alike (src/probe/merge.ts): a no-op run of
// four file tasks on a real local host stats all four paths with ONE stat process. Observed with a
// `stat` on PATH that logs its arguments and runs the real one.
import test from 'ava';
import { chmodSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { localWorkspace, run } from './helpers.js';

test('a no-op run of four file tasks reads the four paths with one stat process', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const files = ['a', 'b', 'c', 'd'].map((n) => ws.write(`h1/${n}.txt`, `${n}\n`));
  const log = path.join(ws.dir, 'stat.log');
  const realStat = execFileSync('/bin/sh', ['-c', 'command -v stat'], { encoding: 'utf8' }).trim();
  const wrapper = ws.write('bin/stat', `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realStat}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  const savedPath = process.env.PATH;
  process.env.PATH = `${path.dirname(wrapper)}:${savedPath}`;
  t.teardown(() => void (process.env.PATH = savedPath));

  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
${['a', 'b', 'c', 'd'].map((n) => `    - name: ${n} is a file\n      file: { path: "{{ work }}/${n}.txt", state: file }`).join('\n')}
`);
  t.is(r.summary.exitCode, 0, JSON.stringify(r.results.map((x) => x.result.msg)));
  t.like(r.summary.stats.h1, { ok: 4, changed: 0, failed: 0 }, 'four ok, nothing changed');
  const calls = readFileSync(log, 'utf8').split('\n').filter((l) => files.some((f) => l.includes(f)));
  t.is(calls.length, 1, `stat calls naming the files:\n${calls.join('\n')}`);
  for (const f of files) t.true(calls[0].includes(f), f);
});
