// The report's data and HTML from a synthetic event stream (timestamps from a fake clock).
import test from 'ava';
import { createReportCollector, renderReportHtml } from '../../src/report/index.js';
import type { RunEvent, TaskInfo } from '../../src/engine/runner/events.js';
import { emptyStats } from '../../src/engine/runner/events.js';

const task = (name: string, line: number, module = 'command'): TaskInfo => ({ name, module, loc: { file: '/p/site.yml', line }, handler: false });

function feed(events: [number, RunEvent][]) {
  let clock = 1000;
  const c = createReportCollector(() => clock);
  for (const [t, e] of events) {
    clock = 1000 + t;
    c.listener(e);
  }
  return c.data();
}

const copyTask = task('write config', 5, 'copy');
const failTask = task('check <thing>', 9);
const sample = feed([
  [0, { type: 'run_start', playbook: '/p/site.yml', check: false, diff: true }],
  [1, { type: 'play_start', name: 'nodes', hosts: ['n1', 'n2'] }],
  [2, { type: 'task_start', task: copyTask }],
  [40, { type: 'host_result', task: copyTask, result: { host: 'n1', status: 'changed', msg: 'create /etc/x', durationMs: 30, diff: [{ header: '/etc/x', before: 'a\n', after: 'b\n' }] } }],
  [50, { type: 'host_result', task: copyTask, result: { host: 'n2', status: 'ok', durationMs: 45 } }],
  [51, { type: 'task_start', task: failTask }],
  [90, { type: 'host_result', task: failTask, result: { host: 'n1', status: 'failed', msg: 'non-zero return code', rc: 2, stderr: 'boom <b>', durationMs: 35 } }],
  [95, { type: 'host_result', task: failTask, result: { host: 'n2', status: 'failed', msg: 'secret stuff', durationMs: 5, noLog: true } }],
  [99, { type: 'run_end', summary: { stats: { n1: { ...emptyStats(), changed: 1, failed: 1 }, n2: { ...emptyStats(), ok: 1, failed: 1 } }, execs: {}, bytesSent: {}, durationMs: 99, exitCode: 2, interrupted: false, failedHosts: ['n1', 'n2'] } }],
]);

test('results get start and end times from arrival and duration', (t) => {
  const [copy, fail] = sample.plays[0]!.tasks;
  t.deepEqual(copy!.results.map((r) => [r.host, r.startMs, r.endMs]), [['n1', 10, 40], ['n2', 5, 50]]);
  t.deepEqual(fail!.results.map((r) => [r.host, r.status, r.startMs, r.endMs]), [['n1', 'failed', 55, 90], ['n2', 'failed', 90, 95]]);
  t.deepEqual(sample.hosts, ['n1', 'n2']);
  t.is(sample.exitCode, 2);
});

test('no_log results keep only their status', (t) => {
  const r = sample.plays[0]!.tasks[1]!.results[1]!;
  t.true(r.noLog);
  t.is(r.msg, undefined);
  t.false(renderReportHtml(sample).includes('secret stuff'));
});

test('HTML: recap, timeline bars, diff, failure output, escaped, self-contained', (t) => {
  const html = renderReportHtml(sample);
  t.regex(html, /<tr data-host="n1"><td><b>n1<\/b><\/td><td class="num zero" data-k="ok">0<\/td><td class="num" data-k="changed">/);
  t.is(html.match(/class="tl-bar"/g)?.length, 4);
  t.regex(html, /<span class="dl dd">-a<\/span><span class="dl da">\+b<\/span>/);
  t.true(html.includes('boom &lt;b&gt;'));
  t.true(html.includes('check &lt;thing&gt;'));
  t.regex(html, /failed \(exit 2\)/);
  t.notRegex(html, /(?:src|href)=["']?(?:https?:)?\/\//, 'nothing is fetched from the network');
});
