// include_vars in playbooks: files found as Ansible finds them (playbook vars/, role vars/), dirs
// walked sorted with files_matching/ignore_files/depth/extensions, name:, free form, and the values'
// precedence: above task vars and play vars, below set_fact and extra vars, kept for later plays.
import test from 'ava';
import { localWorkspace, run } from './helpers.js';

const facts = (c: Awaited<ReturnType<typeof run>>, task: string) => c.results.find((r) => r.task.name === task)!.result.result as Record<string, any>;

test('file, free form, name, dir with its filters; precedence between task vars and set_fact', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('vars/common.yml', 'colour: blue\nsize: "{{ base * 2 }}"\nbase: 21\n');
  ws.write('conf/a.yml', 'a: 1\nshared: from-a\n');
  ws.write('conf/b.json', '{"b": 2, "shared": "from-b"}\n');
  ws.write('conf/skip.yml', 'skipped: true\n');
  ws.write('conf/notes.txt', 'not vars\n');
  ws.write('conf/sub/c.yml', 'c: 3\n');
  const c = await run(ws, `
- hosts: all
  gather_facts: false
  vars: { colour: play }
  tasks:
    - name: free form
      include_vars: common.yml
      register: inc
    - name: dir
      include_vars: { dir: conf, ignore_files: [skip.yml], extensions: [yml, json], ignore_unknown_extensions: true, name: conf }
    - name: dir depth 1
      include_vars: { dir: conf, files_matching: '^a', depth: 1, name: shallow }
    - name: check
      vars: { colour: task }
      assert:
        that:
          - colour == 'blue'
          - size | int == 42
          - "conf == {'a': 1, 'b': 2, 'shared': 'from-b', 'c': 3}"
          - "shallow == {'a': 1, 'shared': 'from-a'}"
          - inc.ansible_included_var_files | length == 1
    - name: set_fact wins
      set_fact: { colour: fact }
    - name: include again
      include_vars: { file: vars/common.yml }
    - name: check fact
      assert: { that: [ "colour == 'fact'" ] }
- hosts: all
  gather_facts: false
  tasks:
    - name: later play
      assert: { that: [ "size | int == 42" ] }
`, { extraVars: { base: 21 } });
  t.is(c.summary.exitCode, 0, JSON.stringify(c.results.filter((r) => r.result.status === 'failed').map((r) => r.result.msg)));
  t.deepEqual(facts(c, 'free form').ansible_included_var_files, [`${ws.dir}/vars/common.yml`]);
  t.is(facts(c, 'free form').changed, false);
});

test('extra vars win; role vars/ and its dir; Ansible\'s failures', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/r/vars/os/debian.yml', 'pkg: deb\n');
  ws.write('roles/r/vars/extra.yml', 'colour: role\n');
  ws.write('roles/r/tasks/main.yml', `
- include_vars: os/debian.yml
- include_vars: { dir: os, name: os }
- include_vars: extra.yml
- assert: { that: [ "pkg == 'deb'", "os.pkg == 'deb'", "colour == 'cli'" ] }
`);
  ws.write('bad.yml', '- a list\n');
  ws.write('conf/x.txt', 'x: 1\n');
  const c = await run(ws, `
- hosts: all
  gather_facts: false
  roles: [r]
  tasks:
    - name: missing
      include_vars: nope.yml
      ignore_errors: true
    - name: list
      include_vars: bad.yml
      ignore_errors: true
    - name: extension
      include_vars: { dir: conf }
      ignore_errors: true
`, { extraVars: { colour: 'cli' } });
  t.is(c.summary.stats.h1.failed, 0);
  t.is(c.summary.stats.h1.ignored, 3);
  t.regex(facts(c, 'missing').message, /^Could not find or access 'nope.yml'\nSearched in:\n\t.*\/vars\/nope.yml/);
  t.regex(facts(c, 'list').message, /bad.yml must be stored as a dictionary\/hash$/);
  t.regex(facts(c, 'extension').message, /x.txt does not have a valid extension: yaml, yml, json$/);
  await t.throwsAsync(run(ws, '- hosts: all\n  gather_facts: false\n  tasks:\n    - include_vars: { file: a.yml, dir: conf }\n'), { message: /site.yml:4:7: .*mixing file only and dir only arguments/ });
});
