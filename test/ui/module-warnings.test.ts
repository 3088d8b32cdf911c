// A module's warnings (Ansible modules run through the fallback return a `warnings` list) are printed
// as Ansible's default callback prints them; a no_log result shows none of its text.
import test from 'ava';
import { createPlainRenderer } from '../../src/ui/plain-renderer.js';
import type { HostResult, TaskInfo } from '../../src/engine/runner/events.js';

const task: TaskInfo = { name: 'warns', module: 'hw_line', loc: { file: 'site.yml', line: 3 }, handler: false };

function render(result: Partial<HostResult>): string {
  let text = '';
  const r = createPlainRenderer({ write: (s) => (text += s), color: false, verbosity: 0, diff: false });
  r({ type: 'host_result', task, result: { host: 'h1', status: 'changed', durationMs: 1, ...result } });
  return text;
}

test('each warning is a [WARNING]: line after the status line', (t) => {
  t.is(render({ result: { changed: true, warnings: ['one', 'two'] } }), 'changed: [h1]\n[WARNING]: one\n[WARNING]: two\n');
  t.is(render({ result: { changed: true } }), 'changed: [h1]\n');
  t.is(render({ noLog: true, result: { changed: true, warnings: ['secret text'] } }), 'changed: [h1]\n');
});
