// Magic variables real roles read (linux-system-roles' firewall reads all three): ansible_facts under
// Ansible's own names (namespace_facts: ansible_distribution is ansible_facts.distribution),
// ansible_version (the ansible-core release hostwire follows) and ansible_verbosity (-v count).
import test from 'ava';
import { rootScope, taskVars, ANSIBLE_VERSION, type RunVarsContext } from '../../src/engine/runner/task-vars.js';
import { newHostState } from '../../src/engine/runner/host-state.js';
import type { PlayDef } from '../../src/engine/playbook/types.js';

const play = { name: 'p', hosts: 'all', vars: {}, tags: [], preTasks: [], tasks: [], postTasks: [], handlers: [], environment: undefined } as unknown as PlayDef;
const ctx = (verbosity?: number): RunVarsContext => ({ play, playFileVars: {}, extraVars: {}, hosts: new Map(), playHosts: ['h1'], groups: {}, check: false, diff: false, playbookDir: '/tmp', verbosity });

test('ansible_facts holds each ansible_X fact also as X; hostwire_ facts stay as they are', (t) => {
  const h = newHostState('h1', {});
  h.facts = { ansible_distribution: 'Debian', ansible_distribution_major_version: '12', hostwire_ovs: { x: 1 } };
  const v = taskVars(ctx(), h, rootScope(play));
  const facts = v.ansible_facts as Record<string, unknown>;
  t.is(facts.distribution, 'Debian');
  t.is(facts.distribution_major_version, '12');
  t.is(facts.ansible_distribution, 'Debian');
  t.deepEqual(facts.hostwire_ovs, { x: 1 });
  t.is(v.ansible_distribution, 'Debian');
});

test('ansible_version and ansible_verbosity', (t) => {
  const h = newHostState('h1', {});
  t.deepEqual(taskVars(ctx(2), h, rootScope(play)).ansible_version, ANSIBLE_VERSION);
  t.is((taskVars(ctx(2), h, rootScope(play)).ansible_version as { full: string }).full, '2.14.18');
  t.is(taskVars(ctx(2), h, rootScope(play)).ansible_verbosity, 2);
  t.is(taskVars(ctx(), h, rootScope(play)).ansible_verbosity, 0);
});

test('ansible_play_hosts_all: every host of the play (linux-system-roles network passes it to its fingerprint module)', (t) => {
  const h = newHostState('h1', {});
  const v = taskVars({ ...ctx(), playHosts: ['h1', 'h2'] }, h, rootScope(play));
  t.deepEqual(v.ansible_play_hosts_all, ['h1', 'h2']);
  t.deepEqual(v.ansible_play_hosts, ['h1', 'h2']);
});
