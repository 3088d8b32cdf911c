// A dependency in a role's meta/main.yml is a RoleInclude as a play's roles: entry is: its when, tags
// and other keywords apply to the dependency's tasks, only the other keys are role parameters
// (kubespray's preinstall -> adduser with when/tags; they were taken for role variables and ignored).
// A role met again is listed each time, run once. Expected listings and runs recorded from ansible-playbook 2.14 on the same files.
import test from 'ava';
import { localWorkspace, run, type Workspace } from './helpers.js';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { isKnownModule } from '../../src/modules/all.js';
import { listPlayTasks } from '../../src/cli/list-tasks.js';

const PLAY = '- hosts: nodes\n  gather_facts: false\n  roles:\n    - top\n';

function roles(ws: Workspace): void {
  ws.write('roles/top/meta/main.yml', [
    'dependencies:',
    '  - role: dep', '    when: use_dep | default(false)', '    tags: [deptag]', '    word: from-meta',
    '  - role: shared', '    tags: [sharedtag]', '',
  ].join('\n'));
  ws.write('roles/top/tasks/main.yml', '- debug: { msg: "top" }\n');
  ws.write('roles/dep/tasks/main.yml', '- name: dep says\n  debug: { msg: "dep {{ word }}" }\n');
  ws.write('roles/shared/tasks/main.yml', '- name: shared says\n  debug: { msg: "shared" }\n');
}

const said = (r: Awaited<ReturnType<typeof run>>) =>
  r.results.map((x) => `${x.task.name}: ${x.result.status === 'skipped' ? 'skipped' : String((x.result.result as { msg?: unknown } | undefined)?.msg)}`);

test('a meta dependency\'s when and tags apply to its tasks; its other keys are role params', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  roles(ws);
  const play = (await loadPlaybook(ws.write('list.yml', PLAY), { knownModule: isKnownModule })).plays[0]!;
  t.deepEqual(listPlayTasks(play, { tags: [], skipTags: [] }).split('\n').filter((l) => l.startsWith('      ')).map((l) => l.trim()), [
    'dep : dep says\tTAGS: [deptag]', 'shared : shared says\tTAGS: [sharedtag]', 'debug\tTAGS: []',
  ]);
  t.deepEqual(said(await run(ws, PLAY)), ['dep says: skipped', 'shared says: shared', 'debug: top']);
  t.deepEqual(said(await run(ws, PLAY, { extraVars: { use_dep: true }, tags: ['deptag'] })), ['dep says: dep from-meta']);
});

test('a role met again is listed again by --list-tasks (Role.compile has no dedup) and still runs once', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  ws.write('roles/common/tasks/main.yml', '- name: common says\n  debug: { msg: common }\n');
  ws.write('roles/app/meta/main.yml', 'dependencies:\n  - common\n');
  ws.write('roles/app/tasks/main.yml', '- name: app says\n  debug: { msg: app }\n- import_role: { name: sub }\n');
  ws.write('roles/sub/tasks/main.yml', '- name: sub says\n  debug: { msg: sub }\n');
  const yaml = '- hosts: nodes\n  gather_facts: false\n  roles:\n    - common\n    - app\n    - { role: app, tags: [again] }\n  tasks:\n    - import_role: { name: common }\n';
  const play = (await loadPlaybook(ws.write('list.yml', yaml), { knownModule: isKnownModule })).plays[0]!;
  // ansible-playbook 2.14 --list-tasks on the same files:
  t.deepEqual(listPlayTasks(play, { tags: [], skipTags: [] }).split('\n').filter((l) => l.startsWith('      ')).map((l) => l.trim()), [
    'common : common says\tTAGS: []', 'common : common says\tTAGS: []', 'app : app says\tTAGS: []', 'sub : sub says\tTAGS: []',
    'common : common says\tTAGS: [again]', 'app : app says\tTAGS: [again]', 'sub : sub says\tTAGS: [again]', 'common : common says\tTAGS: []',
  ]);
  // and its run: app's dependency on common is skipped (common ran), the tagged app is another role, import_role another.
  t.deepEqual(said(await run(ws, yaml)), ['common says: common', 'app says: app', 'sub says: sub', 'app says: app', 'sub says: sub', 'common says: common']);
});
