// include_role / import_role arguments as ansible-core 2.14 takes them (IncludeRole, Role.load):
// *_from files, public, allow_duplicates, rolespec_validate (meta/argument_specs.yml), register on an
// include, and the play's roles' vars seen by every task of the play.
import test from 'ava';
import { localWorkspace, run, type Workspace } from './helpers.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { isKnownModule } from '../../src/modules/all.js';
import { listPlayTasks } from '../../src/cli/list-tasks.js';

type Collected = Awaited<ReturnType<typeof run>>;
const failures = (r: Collected) => r.results.filter((x) => x.result.status === 'failed' && !x.result.ignored).map((x) => `${x.task.name}: ${x.result.msg}`);
/** The msg of every debug task that ran, in order. */
const said = (r: Collected) => r.results.filter((x) => ['ok', 'changed'].includes(x.result.status) && ['debug', 'validate_argument_spec'].includes(x.task.module)).map((x) => String((x.result.result as { msg?: unknown } | undefined)?.msg ?? x.result.msg));

function roleR(ws: Workspace): void {
  ws.write('roles/r/defaults/main.yml', 'word: main-default\nother: main-other\n');
  ws.write('roles/r/defaults/alt.yml', 'word: alt-default\n');
  ws.write('roles/r/vars/main.yml', 'rvar: main-var\n');
  ws.write('roles/r/vars/alt.yml', 'rvar: alt-var\n');
  ws.write('roles/r/tasks/main.yml', '- debug: { msg: "main {{ word }} {{ rvar }}" }\n  changed_when: true\n  notify: hello\n');
  ws.write('roles/r/tasks/side.yml', '- debug: { msg: "side {{ word }} {{ rvar }} {{ other | default(\'none\') }}" }\n');
  ws.write('roles/r/handlers/main.yml', '- name: hello\n  debug: { msg: main-handler }\n');
  ws.write('roles/r/handlers/alt.yml', '- name: hello\n  debug: { msg: alt-handler }\n');
}

test('include_role and import_role: tasks_from, vars_from, defaults_from, handlers_from (templated for include_role)', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  roleR(ws);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars: { pick: alt }
  tasks:
    - include_role:
        name: r
        vars_from: "{{ pick }}"
        defaults_from: "{{ pick }}.yml"
        handlers_from: "{{ pick }}"
    - include_role: { role: r, tasks_from: side }
`);
  t.deepEqual(failures(r), []);
  t.deepEqual(said(r), ['main alt-default alt-var', 'side main-default main-var main-other', 'alt-handler']);
});

test('a *_from file the role lacks is an error, as Ansible\'s "Could not find specified file in role"', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  roleR(ws);
  // Ansible raises it as an AnsibleParserError when a host reaches the include: the run ends there (the
  // linear strategy re-raises it); a fixed name is read ahead, so hostwire names the include's line.
  const fixed = await run(ws, '- hosts: nodes\n  gather_facts: false\n  tasks:\n    - include_role: { name: r, vars_from: nope }\n').catch((e: Error) => e);
  t.regex(String((fixed as Error).message), /site\.yml:4:\d+: Could not find specified file in role: vars\/nope \(role r\)/);
  const templated = await run(ws, '- hosts: nodes\n  gather_facts: false\n  vars: { v: nope }\n  tasks:\n    - include_role: { name: r, handlers_from: "{{ v }}" }\n').catch((e: Error) => e);
  t.regex(String((templated as Error).message), /Could not find specified file in role: handlers\/nope/);
  const bad = await run(ws, '- hosts: nodes\n  gather_facts: false\n  tasks:\n    - include_role: { name: r, tasks_from: [a] }\n').catch((e: Error) => e);
  t.regex(String((bad as Error).message), /Expected a string for tasks_from but got <class 'list'> instead/);
});

test('public: the vars of roles: and import_role reach every task of the play; include_role\'s only with public: true', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  roleR(ws);
  ws.write('roles/listed/defaults/main.yml', 'listed_default: ld\n');
  ws.write('roles/listed/vars/main.yml', 'listed_var: lv\n');
  ws.write('roles/hidden/defaults/main.yml', 'hidden_default: hd\n');
  ws.write('roles/hidden/tasks/main.yml', '- debug: { msg: "inside {{ hidden_default }}" }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  roles: [listed]
  pre_tasks:
    - debug: { msg: "pre {{ listed_default }} {{ listed_var }}" }
  tasks:
    - include_role: { name: hidden }
    - debug: { msg: "after private {{ hidden_default | default('unset') }}" }
    - include_role: { name: hidden, public: "{{ expose }}" }
      vars: { expose: false }
    - debug: { msg: "after templated false {{ hidden_default | default('unset') }}" }
    - include_role: { name: hidden, public: "{{ expose }}" }
      vars: { expose: true }
    - debug: { msg: "after public {{ hidden_default | default('unset') }}" }
    - import_role: { name: r, tasks_from: side.yml, vars_from: alt }
    - debug: { msg: "imported {{ rvar }}" }
`);
  t.deepEqual(failures(r), []);
  t.deepEqual(said(r), ['pre ld lv', 'inside hd', 'after private unset', 'inside hd', 'after templated false unset', 'inside hd', 'after public hd', 'side main-default alt-var main-other', 'imported alt-var']);
});

test('allow_duplicates: include_role false skips a role the host already ran; meta allow_duplicates lets roles: repeat it', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/once/tasks/main.yml', '- debug: { msg: once }\n');
  ws.write('roles/twice/meta/main.yml', 'allow_duplicates: true\n');
  ws.write('roles/twice/tasks/main.yml', '- debug: { msg: twice }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  roles: [once, once, twice, twice]
  tasks:
    - include_role: { name: once }
    - include_role: { name: once, allow_duplicates: false }
    - include_role: { name: once, allow_duplicates: false }
      vars: { other: 1 }
`);
  t.deepEqual(failures(r), []);
  // roles: runs once once and twice twice; the first include runs it; the second (same role, same vars) does not.
  t.deepEqual(said(r), ['once', 'twice', 'twice', 'once', 'once']);
});

test('register on include_tasks and include_role: Ansible\'s include result, per item with a loop, the skip result under when', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  roleR(ws);
  ws.write('more.yml', '- debug: { msg: more }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_tasks: more.yml
      register: it
    - include_role: { name: r, tasks_from: side }
      register: ir
    - include_tasks: { file: more.yml }
      loop: [1, 2]
      when: item == 2
      register: looped
    - include_tasks: more.yml
      when: false
      register: skipped
    - debug: { msg: "{{ it | to_json }}" }
    - debug: { msg: "{{ ir | to_json }}" }
    - debug: { msg: "{{ looped.results | map(attribute='skipped') | map('default', false) | list }} {{ looped.results[1].include }} {{ looped.msg }}" }
    - debug: { msg: "{{ skipped.skipped }} {{ skipped.skip_reason }}" }
`);
  t.deepEqual(failures(r), []);
  const out = said(r).slice(-4);
  t.deepEqual(JSON.parse(out[0]!), { include: 'more.yml', include_args: {}, changed: false });
  t.deepEqual(JSON.parse(out[1]!), { include_args: { name: 'r', tasks_from: 'side' }, changed: false });
  t.is(out[2], "[True, False] more.yml All items completed");
  t.is(out[3], 'True Conditional result was False');
});

const SPEC = `argument_specs:
  main:
    short_description: The r2 role
    options:
      port: { type: int, required: true }
      mode: { type: str, choices: [a, b] }
      names: { type: list, elements: int }
`;

test('rolespec_validate: meta/argument_specs.yml checks the role\'s params first, with Ansible\'s messages; false turns it off', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/r2/meta/argument_specs.yml', SPEC);
  ws.write('roles/r2/tasks/main.yml', '- debug: { msg: "r2 {{ port }}" }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_role: { name: r2 }
      vars: { port: "8080" }
    - import_role: { name: r2, rolespec_validate: false }
      vars: { port: nope }
    - include_role: { name: r2 }
      vars: { port: nope, mode: c, names: ["1", x] }
`);
  t.deepEqual(said(r), ['The arg spec validation passed', 'r2 8080', 'r2 nope']);
  const failed = failures(r);
  t.is(failed.length, 1);
  t.is(failed[0], "Validating arguments against arg spec 'main' - The r2 role: Validation of arguments failed:\n" +
    "argument 'port' is of type <class 'str'> and we were unable to convert to int: <class 'str'> cannot be converted to an int\n" +
    "Elements value for option 'names' is of type <class 'str'> and we were unable to convert to int: <class 'str'> cannot be converted to an int\n" +
    'value of mode must be one of: a, b, got: c');
  const play = (await loadPlaybook(ws.write('list.yml', '- hosts: nodes\n  roles: [{ role: r2, port: 1 }]\n'), { knownModule: isKnownModule })).plays[0]!;
  t.deepEqual(listPlayTasks(play, { tags: [], skipTags: [] }).split('\n').filter((l) => l.includes('Validating')).map((l) => l.trim()), ["r2 : Validating arguments against arg spec 'main' - The r2 role\tTAGS: [always]"]);
});
