// debug as ansible-core's action runs it: `var` is an expression shown at default verbosity,
// `msg` and `var` together are an error, `verbosity:` hides a task below that many -v.
import test from 'ava';
import { createPlainRenderer } from '../../src/ui/plain-renderer.js';
import { localInventory, run, workspace } from './helpers.js';

const playbook = `
- hosts: nodes
  gather_facts: false
  vars:
    word: hello
  tasks:
    - name: lines
      shell: printf 'a\\nb\\n'
      register: r
    - name: show lines
      debug: var=r.stdout_lines
    - name: show expression
      debug: { var: "word | upper" }
    - name: show missing
      debug: { var: nothing_here }
    - name: only with -v
      debug: { msg: verbose, verbosity: 1 }
`;

function output(events: Parameters<ReturnType<typeof createPlainRenderer>>[0][], verbosity: number): string {
  let text = '';
  const render = createPlainRenderer({ write: (s) => (text += s), color: false, verbosity, diff: false });
  for (const e of events) render(e);
  return text;
}

test('debug var is an expression, printed at default verbosity; verbosity: hides a task', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, playbook);
  t.deepEqual(r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`), []);
  t.is(r.summary.exitCode, 0);
  const result = (name: string) => r.results.find((x) => x.task.name === name)!.result;
  t.deepEqual(result('show lines').result?.['r.stdout_lines'], ['a', 'b']);
  t.is(result('show expression').result?.['word | upper'], 'HELLO');
  t.is(result('show missing').result?.nothing_here, 'VARIABLE IS NOT DEFINED!');
  t.is(result('only with -v').status, 'skipped');
  const text = output(r.events, 0);
  t.true(text.includes('ok: [h1] => {\n    "r.stdout_lines": [\n        "a",\n        "b"\n    ]\n}'), text);
  t.true(text.includes('ok: [h1] => {\n    "word | upper": "HELLO"\n}'), text);
  const verbose = await run(ws, playbook, { verbosity: 1 });
  t.is(verbose.byTask('only with -v').h1, 'ok');
  t.true(output(verbose.events, 1).includes('ok: [h1] => {\n    "msg": "verbose"\n}'));
});

test('debug with both msg and var is refused before the run, naming file and line', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const err = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - debug: { msg: a, var: b }
`).catch((e: Error) => e);
  t.true(err instanceof Error);
  t.regex((err as Error).message, /site\.yml:5:\d+: .*'msg' and 'var' are incompatible options/);
});
