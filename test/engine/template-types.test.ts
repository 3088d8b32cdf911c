// Values templated from one expression have the type ansible-core 2.14 gives them (jinja2_native off):
// `{{ (x | int) + 120 }}` is the text "480", a list/dict/bool reads back as one, a variable alone keeps
// its number; module arguments then convert as AnsibleModule's argument spec converts them. The
// expected types were checked against ansible-core 2.14's Templar and set_fact action (see
// test/vars/fixtures/ansible-corpus.json for the recorded templates).
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

const playbook = `
- hosts: nodes
  gather_facts: false
  vars:
    x: "360"
    n: 360
    sum: "{{ (x | int) + 120 }}"
  tasks:
    - name: facts
      set_fact:
        y: "{{ (x | int) + 120 }}"
        same: "{{ n }}"
        listed: "{{ [n, 2] }}"
        flag: "{{ n > 3 }}"
        word: "{{ 'yes' }}"
        json_text: "{{ [1] | to_json }}"
        half: "{{ n / 2 }}"
    - name: types
      assert:
        that:
          - y is string
          - y == '480'
          - y | type_debug == 'str'
          - same is number
          - listed == [360, 2]
          - flag is sameas true
          - word is sameas true
          - json_text == '[1]'
          - half == '180.0'
          - sum == '480'
          - (sum | int) + 1 == 481
    - name: shown
      debug: var=y
    - name: shown number
      debug: var=n
    - name: argument from text
      wait_for:
        path: "{{ playbook_dir }}/site.yml"
        timeout: "{{ (x | int) - 350 }}"
        delay: "{{ '0' }}"
      register: waited
    - name: waited
      assert:
        that: waited is succeeded
`;

test('a template gives text as Ansible 2.14 does; set_fact, debug var and module arguments follow', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, playbook);
  t.deepEqual(r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`), []);
  t.is(r.summary.exitCode, 0);
  const shown = (name: string) => r.results.find((x) => x.task.name === name)!.result.result;
  t.is(shown('shown')?.y, '480', 'debug var shows the text');
  t.is(shown('shown number')?.n, 360, 'a variable alone keeps its number');
});

test('a bool argument takes the text a template gives ("True", "yes")', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars:
    enabled_flag: "{{ 1 == 1 }}"
  tasks:
    - name: touch
      file: { path: "{{ work }}-flag", state: touch, force: "{{ 'yes' }}" }
    - name: line
      lineinfile: { path: "{{ work }}-flag", line: a, create: "{{ enabled_flag }}", backrefs: "{{ 'false' }}" }
`);
  t.deepEqual(r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`), []);
  t.is(r.summary.exitCode, 0);
});

test('retries and delay written as templates are read as numbers (their text, as Ansible int()s it)', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const deadline = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000).unref());
  const r = await Promise.race([deadline, run(ws, `
- hosts: nodes
  gather_facts: false
  vars:
    tries: "2"
  tasks:
    - name: never
      debug: { msg: waiting }
      register: w
      until: w.msg == 'done'
      retries: "{{ tries | int }}"
      delay: "{{ 0 }}"
`)]);
  if (r === 'timeout') return t.fail('the until loop did not end');
  const result = r.results.find((x) => x.task.name === 'never')!.result;
  t.is(result.status, 'failed');
  t.is(result.msg, "retries exhausted (2) waiting for: w.msg == 'done'");
  t.is(result.result?.attempts, 3);
});
