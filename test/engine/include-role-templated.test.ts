// include_role's allow_duplicates, rolespec_validate and public may be templates: ansible-core 2.14
// post-validates the copied include task with each host's vars (playbook/included_file.py), so each
// host gets its own bool (FieldAttribute isa=bool: a value that is no boolean fails that host).
// import_role's stay literal (refused as templates: they are fixed when the playbook loads).
import test from 'ava';
import { localWorkspace, run, type Collected } from './helpers.js';

const said = (r: Collected, host: string) => r.results
  .filter((x) => x.result.host === host && ['ok', 'changed'].includes(x.result.status) && x.task.module === 'debug')
  .map((x) => String((x.result.result as { msg?: unknown } | undefined)?.msg ?? ''));
const failed = (r: Collected, host: string) => r.results.filter((x) => x.result.host === host && x.result.status === 'failed').map((x) => x.result.msg);

test('allow_duplicates as a template: rendered per host (false skips a role the host already ran)', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  ws.write('host_vars/h1.yml', 'dup: false\n');
  ws.write('host_vars/h2.yml', 'dup: "yes"\n');
  ws.write('roles/once/tasks/main.yml', '- debug: { msg: once }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_role: { name: once, allow_duplicates: "{{ dup }}" }
    - include_role: { name: once, allow_duplicates: "{{ dup }}" }
`);
  t.deepEqual(said(r, 'h1'), ['once']);
  t.deepEqual(said(r, 'h2'), ['once', 'once']);
});

test('rolespec_validate as a template: the argument_specs check runs for hosts where it renders true', async (t) => {
  const ws = localWorkspace(t, ['h1', 'h2']);
  ws.write('host_vars/h1.yml', 'check: true\n');
  ws.write('host_vars/h2.yml', 'check: false\n');
  ws.write('roles/r2/meta/argument_specs.yml', 'argument_specs:\n  main:\n    options:\n      port: { type: int, required: true }\n');
  ws.write('roles/r2/tasks/main.yml', '- debug: { msg: "r2 {{ port }}" }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_role: { name: r2, rolespec_validate: "{{ check }}" }
      vars: { port: nope }
`);
  t.deepEqual(said(r, 'h2'), ['r2 nope']);
  t.deepEqual(said(r, 'h1'), []);
  t.is(failed(r, 'h1').length, 1);
  t.regex(failed(r, 'h1')[0]!, /^Validation of arguments failed:\nargument 'port' is of type <class 'str'>/);
});

test('a templated option that renders to no boolean fails that host with the field named', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/once/tasks/main.yml', '- debug: { msg: once }\n');
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - include_role: { name: once, allow_duplicates: "{{ 'maybe' }}" }
`);
  t.deepEqual(failed(r, 'h1'), [`${ws.dir}/site.yml:5:7: the field 'allow_duplicates' has an invalid value (maybe), and could not be converted to an bool. The error was: The value 'maybe' is not a valid boolean.`]);
});

test('import_role refuses a templated option at load, naming it', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/once/tasks/main.yml', '- debug: { msg: once }\n');
  const err = await t.throwsAsync(run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - import_role: { name: once, rolespec_validate: "{{ x }}" }
`));
  t.regex(err!.message, /'rolespec_validate' of include_role\/import_role must be a boolean \(a template is not supported here/);
});
