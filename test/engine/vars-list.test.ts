// vars as a list of mappings (openshift-ansible 3.11's checks playbooks): merged in order, later keys
// win, as ansible-core 2.14's FieldAttributeBase._load_vars; a list holding anything else is its error.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPlaybook } from '../../src/engine/playbook/load-playbook.js';
import { isKnownModule } from '../../src/modules/all.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-vars-list-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const load = (name: string, text: string) => {
  writeFileSync(path.join(dir, name), text);
  return loadPlaybook(path.join(dir, name), { knownModule: isKnownModule });
};

test('play, block and task vars given as a list of mappings are merged in order', async (t) => {
  const pb = await load('ok.yml', `- hosts: all
  vars:
    - { a: 1, b: 1 }
    - { b: 2 }
  tasks:
    - block:
        - debug: { msg: x }
          vars: [ { t: 1 }, { t: 2, u: 3 } ]
      vars: [ { k: v } ]
`);
  const play = pb.plays[0]!;
  t.deepEqual(play.vars, { a: 1, b: 2 });
  const block = play.tasks[0]!;
  t.is(block.kind, 'block');
  if (block.kind !== 'block') return;
  t.deepEqual(block.vars, { k: 'v' });
  const task = block.block[0]!;
  t.deepEqual(task.kind === 'task' ? task.vars : undefined, { t: 2, u: 3 });
});

test("a vars list holding a scalar is refused with Ansible's message and the line", async (t) => {
  await t.throwsAsync(load('bad.yml', '- hosts: all\n  vars: [ { a: 1 }, oops ]\n  tasks: []\n'), {
    message: /bad\.yml:2:\d+: Vars in a Play must be specified as a dictionary, or a list of dictionaries/,
  });
});
