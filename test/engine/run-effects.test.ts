// Modules that act on the run itself, run through the engine on local hosts (nothing on this machine
// changes: they act on the in-memory inventory, the run's stats, the controller's clock, or read facts).
// Expected behaviour from ansible-core 2.14's actions (add_host, group_by, set_stats, pause, setup).
import test from 'ava';
import { localWorkspace, run } from './helpers.js';
import path from 'node:path';
import type { HostResult, RunEvent } from '../../src/engine/runner/events.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import { customStatsLines } from '../../src/ui/plain-renderer.js';

const resultOf = (c: Awaited<ReturnType<typeof run>>, task: string, host = 'h1'): HostResult =>
  c.results.find((r) => r.task.name === task && r.result.host === host)!.result;

test('add_host: runs once per batch, adds hosts with groups and vars the next play targets; groups follows at once', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: add
      add_host: { name: "new-{{ item }}", groups: [fresh, "extra"], ansible_connection: local, colour: "{{ item }}" }
      loop: [a, b]
    - name: again
      add_host: { name: new-a, groups: fresh, ansible_connection: local, colour: a }
    - name: seen now
      debug: { msg: "{{ groups.fresh | join(',') }}" }
- hosts: fresh
  gather_facts: false
  tasks:
    - name: on the new hosts
      debug: { msg: "{{ inventory_hostname }} {{ colour }} {{ group_names | join(',') }}" }
`);
  t.is(c.summary.exitCode, 0);
  t.deepEqual(c.byTask('add'), { h1: 'changed' }, 'once, on the first host only');
  t.deepEqual(c.byTask('again'), { h1: 'ok' }, 'nothing new: not changed');
  t.is(resultOf(c, 'seen now').msg, 'new-a,new-b');
  t.deepEqual(c.results.filter((r) => r.task.name === 'on the new hosts').map((r) => r.result.msg).sort(), ['new-a a extra,fresh', 'new-b b extra,fresh']);
});

test('add_host: host:port sets ansible_ssh_port; a var holding a template is data, never rendered again', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars: { raw: "{{ '{{' }} 7 * 6 {{ '}}' }}" }
  tasks:
    - name: add
      add_host: { hostname: "odd:2222", group: g, ansible_connection: local, note: "{{ raw }}" }
- hosts: g
  gather_facts: false
  tasks:
    - { name: port, debug: { msg: "{{ ansible_ssh_port }} {{ note }} {{ group }}" } }
`);
  t.is(c.summary.exitCode, 0);
  t.is(resultOf(c, 'port', 'odd').msg, '2222 {{ 7 * 6 }} g', 'add_host.py keeps `group` as a host var too');
});

test('add_host: read through hostvars from a play that does not run on the added host, its vars stay data', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars: { raw: "{{ '{{' }} 7 * 6 {{ '}}' }}" }
  tasks:
    - name: add
      add_host: { name: other, ansible_connection: local, note: "{{ raw }}" }
    - { name: read, debug: { msg: "{{ hostvars['other'].note }}" } }
    - { name: read all, debug: { msg: "{{ hostvars.other | dict2items | selectattr('key', 'eq', 'note') | map(attribute='value') | first }}" } }
`);
  t.is(c.summary.exitCode, 0);
  t.is(resultOf(c, 'read').msg, '{{ 7 * 6 }}');
  t.is(resultOf(c, 'read all').msg, '{{ 7 * 6 }}');
});

test('group_by: each host joins its group (spaces become dashes) under its parents; changed only the first time', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  ws.write('inventory.ini', `[nodes]\nh1 ansible_connection=local kind="big one"\nh2 ansible_connection=local kind=small\n`);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - { name: by kind, group_by: { key: "kind {{ kind }}", parents: [sized] } }
    - { name: by kind again, group_by: { key: "kind {{ kind }}", parents: sized } }
- hosts: kind-big-one
  gather_facts: false
  tasks:
    - { name: big, debug: { msg: "{{ groups.sized | join(',') }} {{ groups['kind-big-one'] }}" } }
`);
  t.is(c.summary.exitCode, 0);
  t.deepEqual(c.byTask('by kind'), { h1: 'changed', h2: 'changed' });
  t.deepEqual(c.byTask('by kind again'), { h1: 'ok', h2: 'ok' });
  t.deepEqual(c.byTask('big'), { h1: 'ok' });
  t.is(resultOf(c, 'big').msg, "h1,h2 ['h1']");
});

test('set_stats: aggregated for the run, per host, replaced without aggregate; printed as CUSTOM STATS', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - set_stats: { data: { total: 1, names: ["{{ inventory_hostname }}"], info: { a: 1 } } }
    - set_stats: { data: { info: { b: 2 }, total: "text" } }
    - set_stats: { data: { mine: "{{ inventory_hostname }}" }, per_host: true }
    - set_stats: { data: { last: 1 }, aggregate: false }
    - set_stats: { data: { last: 5 }, aggregate: false }
    - name: bad name
      set_stats: { data: { "not-valid": 1 } }
      ignore_errors: true
`);
  t.is(c.summary.exitCode, 0);
  t.deepEqual(c.summary.customStats, {
    _run: { total: 2, names: ['h1', 'h2'], info: { a: 1, b: 2 }, last: 5 },
    h1: { mine: 'h1' },
    h2: { mine: 'h2' },
  });
  t.regex(String(resultOf(c, 'bad name').msg), /The variable name 'not-valid' is not valid/);
  t.deepEqual(customStatsLines(c.summary.customStats!).slice(1, 5), [
    '\th1: { "mine": "h1"}', '\th2: { "mine": "h2"}', '', '\tRUN: { "info": {  "a": 1,  "b": 2 }, "last": 5, "names": [  "h1",  "h2" ], "total": 2}',
  ]);
});

test('pause: waits its seconds once per batch; without seconds on a non-interactive run it warns and goes on; Ctrl-C ends it', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  const started = Date.now();
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - { name: wait, pause: { seconds: 1 }, register: p }
    - { name: ask, pause: { prompt: "Go?" } }
`);
  await t.throwsAsync(run(ws, '- hosts: nodes\n  tasks:\n    - { name: both, pause: { seconds: 1, minutes: 1 } }\n'), { message: /site\.yml:3:7: .*pause.*mutually exclusive: minutes\|seconds/ });
  t.true(Date.now() - started >= 1000);
  t.deepEqual(c.byTask('wait'), { h1: 'ok' });
  const waited = resultOf(c, 'wait').result!;
  t.regex(String(waited.stdout), /^Paused for 1\.\d+ seconds$/);
  t.is(waited.delta, 1);
  t.deepEqual(resultOf(c, 'ask').result!.warnings, ['Not waiting for response to prompt as stdin is not interactive']);

  // Ctrl-C while it waits: the wait ends at once (the abort comes when the task has started).
  const abort = new AbortController();
  const playbook = ws.write('long.yml', '- hosts: nodes\n  gather_facts: false\n  tasks:\n    - { name: long, pause: { minutes: 5 } }\n');
  const events: RunEvent[] = [];
  const t0 = Date.now();
  await runPlaybook({ playbook, inventory: [path.join(ws.dir, 'inventory.ini')], retryFile: false, signal: abort.signal, onEvent: (e) => {
    events.push(e);
    if (e.type === 'task_start') setTimeout(() => abort.abort(), 200);
  } });
  t.true(Date.now() - t0 < 60_000, 'interrupted well before its 5 minutes');
  const cut = events.flatMap((e) => (e.type === 'host_result' && e.task.name === 'long' ? [e.result] : []));
  t.regex(String(cut[0]?.msg), /user requested abort/);
});

test('pause: an interactive run asks the prompt and registers the answer as user_input', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const asked: string[] = [];
  const c = await run(ws, '- hosts: nodes\n  gather_facts: false\n  tasks:\n    - { name: question, pause: { prompt: "Colour", echo: false } }\n', {
    prompt: async (q, echo) => (asked.push(`${q}|${echo}`), 'blue'),
  });
  t.deepEqual(asked, ['[question]\nColour (output is hidden):|false']);
  t.is(resultOf(c, 'question').result!.user_input, 'blue');
});

test('setup as a task: one exec, filtered, merged into ansible_facts and ansible_* (gather_facts: false before)', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - { name: none yet, debug: { msg: "{{ ansible_facts.keys() | list | length }}" } }
    - { name: gather, setup: { gather_subset: [min], filter: [ansible_distribution*, "os_family"] }, register: s }
    - { name: read, debug: { msg: "{{ ansible_distribution }} {{ ansible_facts.os_family }} {{ ansible_kernel is defined }}" } }
    - { name: more, gather_facts: { gather_subset: "!all,network" } }
    - { name: read more, debug: { msg: "{{ ansible_facts._ansible_facts_gathered }} {{ ansible_interfaces | length > 0 }} {{ ansible_distribution is defined }}" } }
`);
  t.is(c.summary.exitCode, 0);
  t.is(resultOf(c, 'none yet').msg, '0');
  const facts = resultOf(c, 'gather').result!.ansible_facts as Record<string, unknown>;
  t.true(Object.keys(facts).every((k) => k.startsWith('ansible_distribution') || k === 'ansible_os_family'), Object.keys(facts).join(' '));
  t.true(['ansible_distribution', 'ansible_distribution_version', 'ansible_distribution_release', 'ansible_os_family'].every((k) => k in facts));
  t.regex(String(resultOf(c, 'read').msg), /^\S+ \S+ False$/);
  t.is(resultOf(c, 'read more').msg, 'True True True', 'facts merge: earlier ones stay');
});
