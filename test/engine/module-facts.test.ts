// ansible_facts a module returns, as ansible-core 2.14's strategy stores them: any module's
// (package_facts, a role's library/ module through the fallback) become the host's facts - seen as
// ansible_facts.X and as X, kept for later plays, below play vars - while set_fact's stay out of
// ansible_facts, at their own precedence.
import test from 'ava';
import { z } from 'zod';
import { registerModule } from '../../src/modules/all.js';
import { localWorkspace, run } from './helpers.js';

registerModule({
  name: 'hwtest_facts',
  doc: { description: 'returns the facts it is given', args: {}, example: '', check: 'full', diff: 'none' },
  args: z.record(z.string(), z.unknown()),
  environment: 'irrelevant',
  run: async (args) => ({ changed: false, ansible_facts: { ...args } }),
});

test('a module\'s ansible_facts are host facts: ansible_facts.X and X, kept for the next play, below play vars; set_fact is not a fact', async (t) => {
  const ws = localWorkspace(t);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - hwtest_facts: { pkgs: { bash: [{ version: "5" }] }, shadowed: from-module }
    - set_fact: { only_var: 1 }
    - name: seen
      assert:
        that:
          - ansible_facts.pkgs.bash[0].version == "5"
          - pkgs.bash[0].version == "5"
          - "'only_var' not in ansible_facts"
          - only_var == 1
    - name: in a loop too
      hwtest_facts: { looped: "{{ item }}" }
      loop: [l1, l2]
    - assert: { that: ["ansible_facts.looped == 'l2'"] }
- hosts: nodes
  gather_facts: false
  vars: { shadowed: from-play }
  tasks:
    - name: next play
      assert:
        that:
          - "'bash' in ansible_facts.pkgs"
          - shadowed == 'from-play'
          - ansible_facts.shadowed == 'from-module'
`);
  t.deepEqual(r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`), []);
  t.is(r.summary.exitCode, 0);
});
