// with_X loops through the runner, as ansible-playbook runs them: each is lookup('X', terms,
// wantlist=True), templated per host; the items below are what ansible-core 2.14 yields for the
// same terms (see test/vars/loop-lookups.test.ts for the recorded table).
import test from 'ava';
import { localInventory, run, workspace } from './helpers.js';

test('with_* loops run every lookup hostwire has, with the items Ansible gives', async (t) => {
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  localInventory(ws, ['h1']);
  ws.write('files/a.conf', 'a');
  ws.write('files/b.conf', 'b');
  ws.write('templates/motd.j2', 'node {{ inventory_hostname }}\n');
  const r = await run(
    ws,
    `
- hosts: h1
  gather_facts: false
  vars:
    ports: {http: 80, ssh: 22}
    users:
      - {name: ann, keys: [k1, k2]}
      - {name: bob}
  tasks:
    - {name: dict, debug: {msg: "{{ item.key }}={{ item.value }}"}, with_dict: "{{ ports }}"}
    - {name: items, debug: {msg: "{{ item }}"}, with_items: [[1, [2]], 3]}
    - {name: nested, debug: {msg: "{{ item }}"}, with_nested: [[a, b], [1, 2]]}
    - {name: together, debug: {msg: "{{ item }}"}, with_together: [[a, b, c], [1, 2]]}
    - {name: indexed, debug: {msg: "{{ item }}"}, with_indexed_items: [x, y]}
    - name: subelements
      debug: {msg: "{{ item.0.name }} {{ item.1 }}"}
      with_subelements: ["{{ users }}", keys, {skip_missing: true}]
    - {name: sequence, debug: {msg: "{{ item }}"}, with_sequence: start=1 end=3 format=node%02d}
    - {name: fileglob, debug: {msg: "{{ item | basename }}"}, with_fileglob: ["*.conf"]}
    - {name: first_found, debug: {msg: "{{ item | basename }}"}, with_first_found: ["{{ nope }}.conf", b.conf]}
    - {name: template, debug: {msg: "{{ item }}"}, with_template: motd.j2}
    - {name: random, debug: {msg: "{{ item }}"}, with_random_choice: [only]}
    - {name: fqcn cartesian, debug: {msg: "{{ item }}"}, with_community.general.cartesian: [[1], [a, b]]}
    - {name: flattened, debug: {msg: "{{ item }}"}, with_flattened: [[1, [2, [3]]]]}
    - name: with_items and a when per item
      debug: {msg: "{{ item }}"}
      with_items: [1, 2, 3]
      when: item != 2
`,
  );
  const failed = r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`);
  t.deepEqual(failed, []);
  const items = (name: string): unknown[] => {
    const res = r.results.find((x) => x.task.name === name)!.result.result as { items: { item: unknown; status: string }[] };
    return res.items.filter((i) => i.status !== 'skipped').map((i) => i.item);
  };
  t.deepEqual(items('dict'), [{ key: 'http', value: 80 }, { key: 'ssh', value: 22 }]);
  t.deepEqual(items('items'), [1, [2], 3], 'with_items flattens one level');
  t.deepEqual(items('nested'), [['a', 1], ['a', 2], ['b', 1], ['b', 2]]);
  t.deepEqual(items('together'), [['a', 1], ['b', 2], ['c', null]]);
  t.deepEqual(items('indexed'), [[0, 'x'], [1, 'y']]);
  t.deepEqual(items('subelements'), [[{ name: 'ann' }, 'k1'], [{ name: 'ann' }, 'k2']]);
  t.deepEqual(items('sequence'), ['node01', 'node02', 'node03']);
  t.deepEqual(items('fileglob').map((p) => String(p).split('/').pop()), ['a.conf', 'b.conf']);
  t.deepEqual(items('first_found').map((p) => String(p).split('/').pop()), ['b.conf']);
  t.deepEqual(items('template'), ['node h1\n']);
  t.deepEqual(items('random'), ['only']);
  t.deepEqual(items('fqcn cartesian'), [[1, 'a'], [1, 'b']]);
  t.deepEqual(items('flattened'), [1, 2, 3]);
  t.deepEqual(items('with_items and a when per item'), [1, 3]);
});

test('a with_ loop whose lookup fails fails the task naming the lookup and the line', async (t) => {
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  localInventory(ws, ['h1']);
  const r = await run(
    ws,
    `
- hosts: h1
  gather_facts: false
  tasks:
    - name: bad dict
      debug: {msg: "{{ item }}"}
      with_dict: [a, b]
`,
  );
  const res = r.results.find((x) => x.task.name === 'bad dict')!.result;
  t.is(res.status, 'failed');
  t.regex(res.msg ?? '', /site\.yml:5:7.*with_dict expects a dict/);
});
