// The loader's one question to the fallback - "this task names a module hostwire lacks: what runs
// it?" - answered from a playbook's library/, a collection, ansible-core; and the refusals that
// must name the module, where it was looked for and what to install.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFallbackResolver } from '../../src/fallback/resolve.js';
import { getModule, isKnownModule } from '../../src/modules/all.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { moduleStyle } from '../../src/fallback/module-style.js';

const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const fixtures = path.join(root, 'test/fixtures/fallback');
const dir = mkdtempSync(path.join(tmpdir(), 'hw-f5-resolve-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, ANSIBLE_COLLECTIONS_PATH: path.join(fixtures, 'collections'), ANSIBLE_LIBRARY: path.join(dir, 'nolib') };

test('library/, a collection and ansible-core modules resolve to runnable modules; native names stay native', async (t) => {
  const pbDir = path.join(dir, 'pb');
  mkdirSync(path.join(pbDir, 'library'), { recursive: true });
  writeFileSync(path.join(pbDir, 'library/hw_line.py'), '# copy\nfrom ansible.module_utils.basic import AnsibleModule\n');
  writeFileSync(path.join(pbDir, 'site.yml'), `- hosts: all
  tasks:
    - hw_line: { path: /tmp/x, line: y }
    - hwtest.demo.kv: { path: /tmp/kv, key: a, value: b }
    - hwtest.demo.old_kv: { path: /tmp/kv, key: a, value: b }
    - ansible.builtin.getent: { database: passwd }
    - ansible.builtin.copy: { content: x, dest: /tmp/y }
`);
  const pb = await loadPlaybook(path.join(pbDir, 'site.yml'), { knownModule: isKnownModule, resolveModule: createFallbackResolver({ env }) });
  const tasks = pb.plays[0]!.tasks.map((x) => (x.kind === 'task' ? x.module : ''));
  t.deepEqual(tasks, ['hw_line', 'hwtest.demo.kv', 'hwtest.demo.old_kv', 'ansible.builtin.getent', 'copy']);
  for (const name of tasks.slice(0, 4)) t.is(getModule(name)?.environment, 'applies', `${name} is a fallback module`);
});

test('a string argument of a fallback module: key=value pairs, else _raw_params (as parse_kv gives it)', async (t) => {
  const pbDir = path.join(dir, 'pb-raw');
  mkdirSync(pbDir, { recursive: true });
  writeFileSync(path.join(pbDir, 'site.yml'), `- hosts: all
  tasks:
    - hwtest.demo.kv: path=/tmp/kv key=a value="b c"
    - hwtest.demo.kv: "{{ some_file }}"
`);
  const pb = await loadPlaybook(path.join(pbDir, 'site.yml'), { knownModule: isKnownModule, resolveModule: createFallbackResolver({ env }) });
  const args = pb.plays[0]!.tasks.map((x) => (x.kind === 'task' ? x.args : {}));
  t.deepEqual(args, [{ path: '/tmp/kv', key: 'a', value: 'b c' }, { _raw_params: '{{ some_file }}' }]);
});

test('refusals name the module, where it was looked for, and why', async (t) => {
  const resolve = createFallbackResolver({ env });
  const from = { playbookDir: path.join(dir, 'pb2') };
  const missing = resolve('no_such_module', from);
  t.true('error' in missing);
  const msg = (missing as { error: string }).error;
  t.regex(msg, /couldn't resolve module\/action 'no_such_module': not a hostwire module, and not found where Ansible looks; looked in /);
  t.true(msg.includes(path.join(dir, 'pb2/library')));
  t.true(msg.includes(path.join(dir, 'nolib')));
  t.regex(msg, /ansible\/modules/);
  t.regex((resolve('hwtest.demo.gone', from) as { error: string }).error, /removed from hwtest\.demo: use hwtest\.demo\.kv/);
  // A module the fallback cannot run loads, and fails its task when (if) it runs.
  const action = resolve('ansible.builtin.template', from) as { name: string };
  const run = getModule(action.name)!.run!({}, {} as never);
  await t.throwsAsync(run, { message: /module 'ansible\.builtin\.template' \(ansible\.builtin\.template\) is an action with controller-side code \(.*plugins\/action\/template\.py\)/ });
});

test('without ansible-core on the controller: which module, where it was looked for, what to install', (t) => {
  const noCore = { ...env, HOSTWIRE_ANSIBLE_PYTHON: '/bin/false' };
  const resolve = createFallbackResolver({ env: noCore });
  const lib = resolve('hwtest.demo.kv', { playbookDir: dir });
  t.regex((lib as { error: string }).error, /module 'hwtest\.demo\.kv' \(.*kv\.py\) is not native to hostwire: .*needs ansible-core on this controller.*tried \/bin\/false.*apt install ansible-core/);
  const core = resolve('ansible.builtin.getent', { playbookDir: dir });
  t.regex((core as { error: string }).error, /couldn't resolve module\/action 'ansible\.builtin\.getent'.*ansible-core was not found on this controller \(tried \/bin\/false\): install it with: apt install ansible-core/);
});

test('a native name: nothing to do without a library/ file of it; shadowed without ansible-core, named as such', (t) => {
  const noCore = { ...env, HOSTWIRE_ANSIBLE_PYTHON: '/bin/false' };
  const resolve = createFallbackResolver({ env: noCore });
  const pbDir = path.join(dir, 'pb-shadow');
  mkdirSync(path.join(pbDir, 'library'), { recursive: true });
  t.deepEqual(resolve.shadowed('stat', { playbookDir: pbDir }), { warnings: [] });
  writeFileSync(path.join(pbDir, 'library/stat.py'), 'from ansible.module_utils.basic import AnsibleModule\n');
  // A run lists each directory once, as Ansible's plugin loader does: a file added since is not seen by it.
  t.deepEqual(resolve.shadowed('ansible.legacy.stat', { playbookDir: pbDir }), { warnings: [] }, 'library/ was listed before stat.py was there');
  const next = createFallbackResolver({ env: noCore });
  t.deepEqual(next.shadowed('ansible.builtin.stat', { playbookDir: pbDir }), { warnings: [] }, 'ansible.builtin.stat is the builtin');
  t.deepEqual(next.shadowed('debug', { playbookDir: pbDir }), { warnings: [] });
  const s = next.shadowed('ansible.legacy.stat', { playbookDir: pbDir });
  t.regex(s.error ?? '', /^'ansible\.legacy\.stat' is .*pb-shadow\/library\/stat\.py here \(it replaces hostwire's native ansible\.legacy\.stat, as ansible\.legacy resolution does\): .*needs ansible-core on this controller.*apt install ansible-core/);
});

test('module styles: new-style Python runs; binary, PowerShell, WANT_JSON and old-style are named', (t) => {
  t.is(moduleStyle(Buffer.from('from ansible.module_utils.basic import AnsibleModule')), 'python');
  t.is(moduleStyle(Buffer.from('import ansible.module_utils.basic')), 'python');
  t.is(moduleStyle(Buffer.from('from ansible_collections.a.b.plugins.module_utils.x import y')), 'python');
  t.is(moduleStyle(Buffer.from('#<<INCLUDE_ANSIBLE_MODULE_COMMON>>')), 'python');
  t.is(moduleStyle(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1])), 'binary');
  t.is(moduleStyle(Buffer.from('#Requires -Module Ansible.ModuleUtils.Legacy')), 'powershell');
  t.is(moduleStyle(Buffer.from('#!/bin/sh\n# WANT_JSON\n')), 'want_json');
  t.is(moduleStyle(Buffer.from('#!/bin/sh\necho {}\n')), 'old');
});

test("a loaded role's library/ and action_plugins/ serve every later task, as Ansible adds each role's plugin folders", async (t) => {
  const pbDir = path.join(dir, 'pb-roles');
  // libs: a role with no tasks, only plugins (a meta dependency of user); user: tasks naming them.
  mkdirSync(path.join(pbDir, 'roles/libs/library'), { recursive: true });
  mkdirSync(path.join(pbDir, 'roles/libs/action_plugins'), { recursive: true });
  mkdirSync(path.join(pbDir, 'roles/libs/meta'), { recursive: true });
  mkdirSync(path.join(pbDir, 'roles/user/meta'), { recursive: true });
  mkdirSync(path.join(pbDir, 'roles/user/tasks'), { recursive: true });
  writeFileSync(path.join(pbDir, 'roles/libs/library/hw_lib_mod.py'), '# x\nfrom ansible.module_utils.basic import AnsibleModule\n');
  writeFileSync(path.join(pbDir, 'roles/libs/action_plugins/hw_check_only.py'), 'from ansible.plugins.action import ActionBase\n');
  writeFileSync(path.join(pbDir, 'roles/libs/meta/main.yml'), 'dependencies: []\n');
  writeFileSync(path.join(pbDir, 'roles/user/meta/main.yml'), 'dependencies: [libs]\n');
  writeFileSync(path.join(pbDir, 'roles/user/tasks/main.yml'), '- hw_lib_mod: { a: 1 }\n- hw_check_only: { b: 2 }\n');
  writeFileSync(path.join(pbDir, 'site.yml'), '- hosts: all\n  roles: [user]\n');
  const pb = await loadPlaybook(path.join(pbDir, 'site.yml'), { knownModule: isKnownModule, resolveModule: createFallbackResolver({ env }) });
  const tasks = pb.plays[0]!.tasks.flatMap((x) => (x.kind === 'block' ? x.block : [x])).flatMap((x) => (x.kind === 'block' ? x.block : [x]));
  const names = tasks.map((x) => (x.kind === 'task' ? x.module : ''));
  t.true(names.includes('hw_lib_mod') && names.includes('hw_check_only'), names.join(','));
  t.is(getModule('hw_lib_mod')?.environment, 'applies', 'the library module runs through the fallback');
  // An action plugin without a module loads, and fails its task when it runs, naming the plugin.
  await t.throwsAsync(getModule('hw_check_only')!.run!({}, {} as never), { message: /module 'hw_check_only' \(ansible\.legacy\.hw_check_only\) is an action with controller-side code \(.*roles\/libs\/action_plugins\/hw_check_only\.py\)/ });
});
