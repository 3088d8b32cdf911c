// The `connection:` keyword: a play's `connection: local` runs its hosts through the local transport
// (tests touch only their own temp dir), a value hostwire has no transport for is refused at load.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { run, workspace } from './helpers.js';

test('play-level connection: local is honoured for hosts without their own ansible_connection', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  // No ansible_connection: without the play keyword this host would be reached over SSH.
  ws.write('inventory.ini', `[nodes]\nh1 ansible_host=192.0.2.1 work=${ws.dir}/h1\n`);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  connection: local
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - copy: { content: "host={{ inventory_hostname }}\\n", dest: "{{ work }}/out" }
`);
  t.is(r.summary.exitCode, 0, JSON.stringify(r.results.map((x) => x.result.msg)));
  t.is(readFileSync(`${ws.dir}/h1/out`, 'utf8'), 'host=h1\n');
});

test('a connection hostwire has no transport for is refused with file and line', async (t) => {
  const ws = workspace();
  t.teardown(ws.cleanup);
  ws.write('inventory.ini', `[nodes]\nh1 ansible_connection=local\n`);
  const err = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - debug: { msg: x }
      connection: winrm
`).catch((e: Error) => e);
  t.true(err instanceof Error);
  t.regex((err as Error).message, /site\.yml:6:\d+: connection: "winrm" is not supported \(expected local or ssh\)/);
});
