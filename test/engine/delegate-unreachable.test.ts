// A task delegated to an inventory host that cannot be reached: the delegating host's result is
// unreachable (as Ansible reports it, the host leaves the play), not an error thrown out of the run.
// The dead host is loopback port 1, where nothing listens; nothing on this machine changes (debug only).
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

const DEAD = '\n[dead]\ngone ansible_host=127.0.0.1 ansible_port=1\n';

test('delegate_to an unreachable host: this host is unreachable, its next task does not run', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2'], DEAD);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: delegated
      debug: { msg: hi }
      delegate_to: "{{ 'gone' if inventory_hostname == 'h1' else inventory_hostname }}"
    - name: after
      debug: { msg: after }
`);
  t.deepEqual(c.byTask('delegated'), { h1: 'unreachable', h2: 'ok' });
  t.deepEqual(c.byTask('after'), { h2: 'ok' });
  const r = c.results.find((x) => x.task.name === 'delegated' && x.result.host === 'h1')!.result;
  t.regex(r.msg ?? '', /cannot connect to .*127\.0\.0\.1:1/);
  t.is(c.summary.exitCode, 4);
});

test('delegate_to a host whose key file is missing: the task fails naming the file', async (t) => {
  const ws = localWorkspace(t, ['h1'], '\n[dead]\nnokey ansible_host=127.0.0.1 ansible_port=1 ansible_ssh_private_key_file=/nonexistent/key\n');
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - { name: delegated, debug: { msg: hi }, delegate_to: nokey }
`);
  t.deepEqual(c.byTask('delegated'), { h1: 'failed' });
  t.regex(c.results[0]!.result.msg ?? '', /cannot read SSH private key file \/nonexistent\/key/);
  t.is(c.summary.exitCode, 2);
});

test('delegate_to an inventory host outside the play: it is connected and the task runs there', async (t) => {
  const ws = localWorkspace(t, ['h1'], `\n[others]\nh3 ansible_connection=local colour=blue\n`);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: delegated
      command: echo on-h3
      delegate_to: h3
      register: r
    - name: seen
      debug: { msg: "{{ r.stdout }} {{ hostvars.h3.colour }}" }
`);
  t.deepEqual(c.byTask('delegated'), { h1: 'changed' });
  t.is(c.results.find((x) => x.task.name === 'delegated')!.result.delegatedTo, 'h3');
  t.is(c.results.find((x) => x.task.name === 'seen')!.result.msg, 'on-h3 blue');
  t.is(c.summary.exitCode, 0);
});
