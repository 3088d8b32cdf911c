import test from 'ava';
import { execFileSync } from 'node:child_process';
import { buildBatch, inlineProbe, splitBatch } from '../../src/probe/batch.js';

const run = (script: string) => execFileSync('/bin/sh', ['-c', script], { encoding: 'utf8' });

test('split gives back each probe output exactly, with its own rc', (t) => {
  const probes = [
    { id: 'no-newline', command: 'printf abc' },
    { id: 'empty', command: 'true' },
    { id: 'multi', command: 'printf "l1\\nl2\\n\\n"' },
    { id: 'failing', command: 'echo partial; echo hidden >&2; exit 3' },
    { id: 'missing-tool', command: 'no-such-tool-hostwire --version' },
    { id: 'exits', command: 'exit 5' },
    { id: 'stdin', command: 'cat; echo done' },
    { id: 'marker-like', command: 'echo "@@rc 9 not a marker"' },
  ];
  const out = splitBatch(run(buildBatch(probes)));
  t.deepEqual([...out.keys()], probes.map((p) => p.id), 'a probe calling exit does not end the batch');
  t.deepEqual(out.get('no-newline'), { stdout: 'abc', rc: 0 });
  t.deepEqual(out.get('empty'), { stdout: '', rc: 0 });
  t.deepEqual(out.get('multi'), { stdout: 'l1\nl2\n\n', rc: 0 });
  t.deepEqual(out.get('failing'), { stdout: 'partial\n', rc: 3 }, 'stderr is discarded');
  t.deepEqual(out.get('missing-tool'), { stdout: '', rc: 127 });
  t.deepEqual(out.get('exits'), { stdout: '', rc: 5 });
  t.deepEqual(out.get('stdin'), { stdout: 'done\n', rc: 0 }, 'probes read /dev/null, not the exec stdin');
  t.deepEqual(out.get('marker-like'), { stdout: '@@rc 9 not a marker\n', rc: 0 });
});

test('a batch cut short leaves the unfinished probe out', (t) => {
  const full = run(buildBatch([{ id: 'a', command: 'echo 1' }, { id: 'b', command: 'echo 2' }]));
  const cut = full.slice(0, full.lastIndexOf('@@rc'));
  t.deepEqual([...splitBatch(cut).keys()], ['a']);
});

test('ids are validated and unique', (t) => {
  t.throws(() => buildBatch([{ id: 'a b', command: 'true' }]), { message: /probe id/ });
  t.throws(() => buildBatch([{ id: 'a', command: 'true' }, { id: 'a', command: 'true' }]), { message: /duplicate probe id a/ });
});

test('an inline probe runs in the batch shell (no subshell) and splits back the same', (t) => {
  const probes = [
    { id: 'a', command: inlineProbe('v=1; test -e /nonexistent-hostwire') },
    { id: 'b', command: 'echo "v=$v"' },
    { id: 'c', command: inlineProbe('printf "x\\n"') },
  ];
  const script = buildBatch(probes);
  t.regex(script, /^\{\n#hw:inline\nv=1/m, 'inline probes are brace groups');
  t.regex(script, /^\(\necho "v=\$v"\n\) /m, 'other probes keep their subshell');
  const out = splitBatch(run(script));
  t.deepEqual(out.get('a'), { stdout: '', rc: 1 });
  t.deepEqual(out.get('b'), { stdout: 'v=1\n', rc: 0 }, 'the inline probe ran in the shell the next probe inherits');
  t.deepEqual(out.get('c'), { stdout: 'x\n', rc: 0 });
  t.is(inlineProbe(inlineProbe('true')), inlineProbe('true'), 'marking twice is marking once');
});
