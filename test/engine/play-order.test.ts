// Issue 16: the play keyword `order` was accepted and ignored; it now orders the play's hosts as
// Ansible's does, and `strategy` other than linear and `force_handlers: true` are refused at load.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { orderHosts } from '../../src/engine/playbook/play-order.js';
import { localWorkspace, run } from './helpers.js';

test('orderHosts: inventory, reverse_inventory, sorted, reverse_sorted, shuffle', (t) => {
  const hosts = ['n2', 'n10', 'n1'];
  t.deepEqual(orderHosts(hosts, undefined), ['n2', 'n10', 'n1']);
  t.deepEqual(orderHosts(hosts, 'inventory'), ['n2', 'n10', 'n1']);
  t.deepEqual(orderHosts(hosts, 'reverse_inventory'), ['n1', 'n10', 'n2']);
  t.deepEqual(orderHosts(hosts, 'sorted'), ['n1', 'n10', 'n2'], 'as Python sorts strings');
  t.deepEqual(orderHosts(hosts, 'reverse_sorted'), ['n2', 'n10', 'n1']);
  t.deepEqual([...orderHosts(hosts, 'shuffle', () => 0)].sort(), ['n1', 'n10', 'n2'], 'a permutation');
  t.deepEqual(orderHosts(hosts, 'shuffle', () => 0), ['n10', 'n1', 'n2']);
});

test('order: reverse_sorted with serial: 1 runs the hosts one by one in that order', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2', 'h3']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  serial: 1
  order: reverse_sorted
  tasks:
    - name: note the host
      shell: echo {{ inventory_hostname }} >> "{{ work | dirname }}/order.txt"
`);
  t.is(r.summary.exitCode, 0);
  t.is(readFileSync(join(ws.dir, 'order.txt'), 'utf8'), 'h3\nh2\nh1\n');
});

const refusedAtLoad = async (t: import('ava').ExecutionContext, keyword: string, expected: RegExp) => {
  const ws = localWorkspace(t, ['h1']);
  const err = await run(ws, `- hosts: nodes\n  gather_facts: false\n  ${keyword}\n  tasks:\n    - debug: { msg: x }\n`).catch((e: Error) => e);
  t.true(err instanceof Error, keyword);
  t.regex((err as Error).message, expected);
};

test('order with an unknown value, strategy other than linear and force_handlers: true are refused naming file and line', async (t) => {
  await refusedAtLoad(t, 'order: random', /site\.yml:3:3: 'order' must be one of inventory, reverse_inventory, sorted, reverse_sorted, shuffle/);
  await refusedAtLoad(t, 'strategy: free', /site\.yml:3:3: strategy: "free" is not supported: hostwire runs plays with the linear strategy only/);
  await refusedAtLoad(t, 'force_handlers: true', /site\.yml:3:3: 'force_handlers' is not supported by hostwire/);
  const ws = localWorkspace(t, ['h1']);
  const ok = await run(ws, `- hosts: nodes\n  gather_facts: false\n  strategy: linear\n  force_handlers: false\n  tasks:\n    - debug: { msg: x }\n`);
  t.is(ok.summary.exitCode, 0);
});
