// set_fact as ansible-core 2.14 runs it (recorded with ansible-playbook on a lab host, the same
// playbook): cacheable facts are host facts too - ansible_facts.X, cleared by meta: clear_facts while
// the set_fact variable stays - and with no fact cache that is all cacheable does; its value is a
// strict boolean; each key is templated (a loop's "c{{ item }}") and must be a variable name.
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

const PLAY = `
- hosts: h1
  gather_facts: false
  tasks:
    - set_fact: { a: 1, cacheable: true }
      register: r
    - set_fact: { b: 2, cacheable: "no" }
    - name: first
      debug: { msg: "{{ ansible_facts.a | default('undef') }} {{ ansible_facts.b | default('undef') }} {{ r }}" }
    - name: loop
      set_fact: { "c{{ item }}": "{{ item }}", cacheable: yes }
      loop: [1, 2]
    - name: looped
      debug: { msg: "{{ ansible_facts.c1 | default('undef') }} {{ ansible_facts.c2 | default('undef') }} {{ c1 }}" }
    - meta: clear_facts
    - name: cleared
      debug: { msg: "{{ ansible_facts.a | default('undef') }} {{ a }}" }
- hosts: h1
  gather_facts: false
  tasks:
    - name: next play
      debug: { msg: "{{ ansible_facts.a | default('undef') }} {{ a }}" }
    - name: not a boolean
      set_fact: { d: 1, cacheable: maybe }
      ignore_errors: true
    - name: not a name
      set_fact: { "d-{{ 1 }}": 1 }
      ignore_errors: true
`;

test("set_fact cacheable: host facts too (ansible_facts.X) until clear_facts; keys templated; ansible-playbook's answers", async (t) => {
  const ws = localWorkspace(t);
  const r = await run(ws, PLAY);
  const msg = (name: string) => r.results.find((x) => x.task.name === name)?.result.msg;
  const said = (name: string) => (r.results.find((x) => x.task.name === name)?.result.result as { msg?: string } | undefined)?.msg;
  // ansible-playbook 2.14.18 printed these (its dict order differs: ansible_facts, failed, changed).
  t.is(said('first'), "1 undef {'changed': False, 'ansible_facts': {'a': 1}, 'failed': False}", 'the internal cacheable key is not registered');
  t.is(said('looped'), '1 2 1');
  t.is(said('cleared'), 'undef 1');
  t.is(said('next play'), 'undef 1');
  t.is(msg('not a boolean'), "Unexpected failure during module execution: The value 'maybe' is not a valid boolean.  Valid booleans include: 'y', 1, 0, 'f', 'yes', 'off', '0', 'n', 'on', 't', 'no', 'true', '1', 'false'");
  t.is(msg('not a name'), "The variable name 'd-1' is not valid. Variables must start with a letter or underscore character, and contain only letters, numbers and underscores.");
});
