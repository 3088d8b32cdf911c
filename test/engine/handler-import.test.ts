// import_tasks among handlers (kubespray's etcd role opens its handlers with one): as ansible-core 2.14
// runs it, the imported tasks are handlers of their own, notified by name or listen topic; the import's
// when and vars reach them; the import itself cannot be notified. Local hosts, debug only.
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

const HANDLERS = `
- name: Backup
  import_tasks: backup.yml
  vars: { where: /backup }
  when: inventory_hostname != 'h2'
- name: restart
  debug: { msg: restarted }
`;
const BACKUP = `
- name: copy the data
  debug: { msg: "copied to {{ where }}" }
  listen: Restart etcd
- name: note it
  debug: { msg: noted }
`;

test('handlers imported by import_tasks run by their own names and topics, with the import’s when and vars', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  ws.write('backup.yml', BACKUP);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  handlers:${HANDLERS.replace(/\n/g, '\n    ')}
  tasks:
    - { name: change, command: "true", notify: [Restart etcd, restart] }
`);
  t.is(c.summary.exitCode, 0);
  t.deepEqual(c.byTask('copy the data'), { h1: 'ok', h2: 'skipped' });
  t.is(c.results.find((r) => r.task.name === 'copy the data' && r.result.host === 'h1')!.result.msg, 'copied to /backup');
  t.deepEqual(c.byTask('note it'), {}, 'not notified: does not run');
  t.deepEqual(c.byTask('restart'), { h1: 'ok', h2: 'ok' });
});

test('the import itself cannot be notified (Ansible: a static include cannot be notified)', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('backup.yml', BACKUP);
  const c = await run(ws, `
- hosts: nodes
  gather_facts: false
  handlers:
    - { name: Backup, import_tasks: backup.yml }
  tasks:
    - { name: change, command: "true", notify: Backup }
`).catch((e: Error) => e);
  const msg = c instanceof Error ? c.message : JSON.stringify(c.results.map((r) => r.result.msg));
  t.regex(msg, /the handler 'Backup' is notified but no handler of that name \(or listen topic\) exists/);
});

test('a block among handlers is still refused, naming the line', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const e = await t.throwsAsync(run(ws, `
- hosts: nodes
  gather_facts: false
  handlers:
    - block:
        - { name: x, debug: { msg: x } }
  tasks: []
`));
  t.regex(e!.message, /handlers cannot be blocks/);
});
