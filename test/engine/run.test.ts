// The runner end to end on real local commands: handlers, blocks, loops, tags, check mode,
// registers, failure policies and exit codes.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { localInventory, run, workspace } from './helpers.js';

test('handlers run once, after the tasks, in definition order, only when notified by a change', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: make dir
      command: mkdir -p {{ work }}
      args: { creates: "{{ work }}" }
      notify: [second, first]
    - name: unchanged
      command: "true"
      changed_when: false
      notify: never notified
    - name: again
      shell: echo x >> {{ work }}/log
      notify: first
  handlers:
    - name: first
      shell: echo first >> {{ work }}/handlers
    - name: second
      shell: echo second >> {{ work }}/handlers
    - name: never notified
      shell: echo never >> {{ work }}/handlers
`);
  t.is(r.summary.exitCode, 0);
  t.deepEqual(r.tasksRun(), ['make dir', 'unchanged', 'again', 'HANDLER first', 'HANDLER second']);
  t.is(readFileSync(`${ws.dir}/h1/handlers`, 'utf8'), 'first\nsecond\n');
  // As Ansible counts: ok includes the changed tasks (5 ran, 4 of them changed).
  t.deepEqual(r.summary.stats.h1, { ok: 5, changed: 4, unreachable: 0, failed: 0, skipped: 0, rescued: 0, ignored: 0 });
});

test('creates makes command idempotent; under check mode it would run (changed, as Ansible) and changes nothing', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const pb = `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: create marker
      shell: mkdir -p {{ work }} && touch {{ work }}/marker
      args: { creates: "{{ work }}/marker" }
`;
  const check = await run(ws, pb, { check: true });
  t.is(check.byTask('create marker').h1, 'changed');
  t.false(existsSync(`${ws.dir}/h1/marker`));
  const first = await run(ws, pb);
  t.is(first.byTask('create marker').h1, 'changed');
  const second = await run(ws, pb);
  t.is(second.byTask('create marker').h1, 'ok');
  t.is(second.summary.stats.h1.changed, 0);
});

test('block, rescue and always; a rescued host counts rescued and goes on', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - block:
        - name: fails on h1 only
          command: "false"
          when: inventory_hostname == 'h1'
        - name: after failure
          debug: { msg: still here }
      rescue:
        - name: rescue
          debug: { msg: "rescued {{ inventory_hostname }}" }
      always:
        - name: always
          debug: { msg: always }
    - name: next
      debug: { msg: next }
`);
  t.is(r.summary.exitCode, 0);
  t.deepEqual(r.byTask('fails on h1 only'), { h1: 'failed', h2: 'skipped' });
  t.deepEqual(r.byTask('after failure'), { h2: 'ok' });
  t.deepEqual(r.byTask('rescue'), { h1: 'ok' });
  t.deepEqual(r.byTask('always'), { h1: 'ok', h2: 'ok' });
  t.deepEqual(r.byTask('next'), { h1: 'ok', h2: 'ok' });
  t.is(r.summary.stats.h1.rescued, 1);
  t.is(r.summary.stats.h1.failed, 0);
});

test('a failed host leaves the play, exit code 2; ignore_errors counts ignored', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: ignored failure
      command: "false"
      ignore_errors: true
    - name: real failure
      command: "false"
      when: inventory_hostname == 'h2'
    - name: after
      debug: { msg: after }
`);
  t.is(r.summary.exitCode, 2);
  t.deepEqual(r.byTask('after'), { h1: 'ok' });
  // Ansible counts an ignored failure as ok and ignored, and as changed when its result changed
  // (a command always reports changed).
  t.deepEqual(r.summary.stats.h1, { ok: 2, changed: 1, unreachable: 0, failed: 0, skipped: 1, rescued: 0, ignored: 1 });
  t.is(r.summary.stats.h2.failed, 1);
  t.deepEqual(r.summary.failedHosts, ['h2']);
});

test('any_errors_fatal ends the play for every host', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  any_errors_fatal: true
  tasks:
    - name: boom
      command: "false"
      when: inventory_hostname == 'h1'
    - name: never
      debug: { msg: never }
`);
  t.is(r.summary.exitCode, 2);
  t.deepEqual(r.byTask('never'), {});
});

test('loops with labels, register, until/retries, changed_when and failed_when', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: loop
      shell: "echo {{ item.n }}"
      loop: [{ n: 1 }, { n: 2 }, { n: 3 }]
      loop_control: { label: "{{ item.n }}" }
      register: out
      changed_when: false
    - name: check loop results
      assert:
        that:
          - out.results | length == 3
          - out.results[1].stdout == '2'
    - name: counter
      shell: "mkdir -p {{ work }}; echo x >> {{ work }}/count; wc -l < {{ work }}/count"
      register: c
      until: c.stdout | int >= 3
      retries: 5
      delay: 0
    - name: attempts seen
      assert: { that: ["c.attempts == 3"] }
    - name: failed_when on output
      shell: echo ERROR
      register: e
      failed_when: "'ERROR' in e.stdout"
      ignore_errors: true
`);
  t.is(r.summary.exitCode, 0, JSON.stringify(r.results.filter((x) => x.result.status === 'failed').map((x) => x.result.msg)));
  t.deepEqual(r.byTask('loop'), { h1: 'ok' });
  t.is(r.byTask('failed_when on output').h1, 'failed');
  t.is(r.summary.stats.h1.ignored, 1);
});

test('tags: --tags, --skip-tags, always and never', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const pb = `
- hosts: nodes
  gather_facts: false
  tasks:
    - { name: a, debug: { msg: a }, tags: [net] }
    - { name: b, debug: { msg: b }, tags: [fw] }
    - { name: c, debug: { msg: c }, tags: [always] }
    - { name: d, debug: { msg: d }, tags: [never, debugonly] }
    - { name: e, debug: { msg: e } }
`;
  t.deepEqual((await run(ws, pb)).tasksRun(), ['a', 'b', 'c', 'e']);
  t.deepEqual((await run(ws, pb, { tags: ['net'] })).tasksRun(), ['a', 'c']);
  t.deepEqual((await run(ws, pb, { skipTags: ['net', 'always'] })).tasksRun(), ['b', 'e']);
  t.deepEqual((await run(ws, pb, { tags: ['debugonly'] })).tasksRun(), ['c', 'd']);
});

test('variable precedence: role defaults < inventory < play vars < role vars < task vars < extra vars', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1'], '[nodes:vars]\nv_inv=inventory\nv_play=inventory');
  ws.write('roles/r/defaults/main.yml', 'v_def: default\nv_inv: default\nv_task: default\n');
  ws.write('roles/r/vars/main.yml', 'v_rolevars: rolevars\n');
  ws.write('roles/r/tasks/main.yml', `
- name: show
  vars: { v_task: task }
  assert:
    that:
      - v_def == 'default'
      - v_inv == 'inventory'
      - v_play == 'play'
      - v_rolevars == 'rolevars'
      - v_task == 'task'
      - v_extra == 'extra'
`);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars: { v_play: play, v_rolevars: play, v_extra: play }
  roles: [r]
`, { extraVars: { v_extra: 'extra' } });
  t.is(r.summary.exitCode, 0, JSON.stringify(r.results.map((x) => x.result.msg)));
  t.deepEqual(r.byTask('show'), { h1: 'ok' });
});

test('run_once with delegate_to and serial batches', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1', 'h2', 'h3']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  serial: 2
  tasks:
    - name: once
      shell: "echo {{ inventory_hostname }} >> ${ws.dir}/once"
      run_once: true
      delegate_to: localhost
`);
  t.is(r.summary.exitCode, 0);
  // One run per batch of 2: h1 (batch 1) and h3 (batch 2).
  t.is(readFileSync(`${ws.dir}/once`, 'utf8'), 'h1\nh3\n');
});

test('set_fact and register persist across plays; meta flush_handlers runs handlers early', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - set_fact: { answer: 42 }
    - name: change
      command: "true"
      notify: h
    - meta: flush_handlers
    - name: after flush
      debug: { msg: x }
  handlers:
    - name: h
      debug: { msg: handler }
- hosts: nodes
  gather_facts: false
  tasks:
    - name: fact survives
      assert: { that: ["answer == 42"] }
`);
  t.is(r.summary.exitCode, 0);
  t.deepEqual(r.tasksRun(), ['set_fact', 'change', 'HANDLER h', 'after flush', 'fact survives']);
});

test('facts are gathered in one exec and usable in tasks', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['factshost']);
  const r = await run(ws, `
- hosts: nodes
  tasks:
    - name: use facts
      assert:
        that:
          - ansible_hostname | length > 0
          - ansible_processor_nproc | int >= 1
`);
  t.is(r.summary.exitCode, 0, JSON.stringify(r.results.map((x) => x.result.msg)));
  // One exec holds the run lock and gathers every fact with it; assert needs none.
  t.is(r.summary.execs.factshost, 1);
});

test('without facts the first tasks\' state is read by the run lock\'s own exec: a no-op re-run is one exec', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['lockread']);
  const play = `
- hosts: nodes
  gather_facts: false
  tasks:
    - copy: { dest: "${ws.dir}/a.conf", content: "a\\n" }
    - file: { path: "${ws.dir}/d", state: directory }
    - lineinfile: { path: "${ws.dir}/b.conf", line: "b", create: true }
`;
  const first = await run(ws, play);
  t.is(first.summary.exitCode, 0);
  const again = await run(ws, play);
  t.deepEqual(again.tasksRun().length, 3);
  t.is(again.summary.stats.lockread.changed, 0);
  t.is(again.summary.execs.lockread, 1);
});

test('group_vars and host_vars beside the playbook are read, above the inventory', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['pvhost'], '[nodes:vars]\nfrom_inv=inventory\nover=inventory');
  ws.write('group_vars/nodes.yml', 'over: playbook-group\n');
  ws.write('host_vars/pvhost.yml', 'only_host: yes\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: check
      assert: { that: ["from_inv == 'inventory'", "over == 'playbook-group'", "only_host"] }
`);
  t.is(r.summary.exitCode, 0, JSON.stringify(r.results.map((x) => x.result.msg)));
});

test('a play\'s hosts: is templated with -e vars and play vars', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1', 'h2']);
  const pb = `
- hosts: "{{ targets }}"
  gather_facts: false
  tasks:
    - name: touch
      shell: "true"
      changed_when: false
- hosts: "{{ only }}"
  gather_facts: false
  vars: { only: h1 }
  tasks:
    - name: second play
      shell: "true"
      changed_when: false
`;
  const r = await run(ws, pb, { extraVars: { targets: 'h2' } });
  t.deepEqual(r.byTask('touch'), { h2: 'ok' });
  t.deepEqual(r.byTask('second play'), { h1: 'ok' });
});

test('every handler listening on a topic runs; a skipped delegated task never renders its delegate', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: change
      shell: mkdir -p {{ work }}
      notify: restart stack
    - name: skipped, delegate undefined
      shell: "true"
      delegate_to: "{{ nowhere }}"
      when: false
    - name: delegated
      shell: "true"
      changed_when: false
      delegate_to: "{{ 'local' ~ 'host' }}"
  handlers:
    - name: restart db
      shell: echo db >> {{ work }}/handlers
      listen: restart stack
    - name: restart web
      shell: echo web >> {{ work }}/handlers
      listen: restart stack
`);
  t.is(r.summary.exitCode, 0);
  t.is(r.byTask('skipped, delegate undefined').h1, 'skipped');
  t.is(readFileSync(`${ws.dir}/h1/handlers`, 'utf8'), 'db\nweb\n');
  const delegated = r.events.find((e) => e.type === 'host_result' && e.task.name === 'delegated');
  t.is(delegated && delegated.type === 'host_result' ? delegated.result.delegatedTo : undefined, 'localhost');
});

test('a delegated file task reads its state on the delegate: a second run is ok, not changed', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1']);
  const pb = `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: work dir
      file: { path: "{{ work }}", state: directory }
    - name: the play host has other content first
      copy: { dest: "{{ work }}/f", content: "host\\n" }
    - name: written on the controller
      copy: { dest: "{{ work }}-controller", content: "controller\\n" }
      delegate_to: localhost
`;
  const first = await run(ws, pb);
  t.is(first.byTask('written on the controller').h1, 'changed');
  const second = await run(ws, pb);
  t.is(second.byTask('written on the controller').h1, 'ok');
  t.is(readFileSync(`${ws.dir}/h1-controller`, 'utf8'), 'controller\n');
});

test('hostvars holds every inventory host, also those no play of this run touched', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  localInventory(ws, ['h1', 'h2']);
  const r = await run(ws, `
- hosts: h1
  gather_facts: false
  tasks:
    - name: read another host's inventory vars
      assert:
        that:
          - "'h2' in hostvars"
          - hostvars['h2'].inventory_hostname == 'h2'
          - groups['nodes'] | map('extract', hostvars, 'inventory_hostname') | list == ['h1', 'h2']
`);
  t.is(r.summary.exitCode, 0);
  t.deepEqual(r.byTask("read another host's inventory vars"), { h1: 'ok' });
  t.deepEqual(Object.keys(r.summary.stats), ['h1'], 'the recap lists only the hosts that ran');
});
