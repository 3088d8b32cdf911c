// Loading details beyond the golden views: format detection, warnings, empty files,
// `all:` hosts landing in ungrouped, and building an inventory by hand.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addChildGroup, addGroup, addHost, emptyInventory, groupHosts, loadInventory, reconcile, selectHosts,
} from '../../src/engine/inventory/index.js';
import { BadInputError } from '../../src/errors.js';
import { sourcesOf } from './helpers.js';

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'hostwire-inv-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('skipped YAML keys become warnings with their position, not errors', async (t) => {
  const inv = await loadInventory(sourcesOf('misc'));
  t.true(inv.warnings.some((w) => /yaml-no-extension:3: skipping unexpected key \(ansible_user\) in group \(x-defaults\)/.test(w)));
  t.true(inv.groups.has('x-defaults'));
});

test('empty files and comment-only files are empty inventories', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'empty.yml'), '');
  writeFileSync(join(dir, 'comments'), '# nothing\n; here\n');
  const inv = await loadInventory([join(dir, 'empty.yml'), join(dir, 'comments')]);
  t.deepEqual([...inv.hosts.keys()], []);
  t.deepEqual(selectHosts(inv, 'all'), []);
});

test('hosts directly under all: go to ungrouped; a host named like a group warns', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'inv.yml'), 'all:\n  hosts:\n    solo:\n    web:\n  children:\n    web:\n      hosts:\n        w1:\n');
  const inv = await loadInventory([join(dir, 'inv.yml')]);
  // Ansible's quirk, kept: the group `web` (not the host) is put under ungrouped.
  t.deepEqual(inv.groups.get('ungrouped')!.hosts, ['solo']);
  t.deepEqual(inv.groups.get('ungrouped')!.children, ['web']);
  t.deepEqual(inv.groups.get('all')!.hosts, ['solo', 'web']);
  t.true(inv.warnings.includes('Found both group and host with same name: web'));
  // a plain name that is a host is taken as the host before any group match (Ansible does the same)
  t.deepEqual(selectHosts(inv, 'web'), ['web']);
  t.deepEqual(selectHosts(inv, 'web*'), ['w1', 'web']);
});

test('INI: host in a group leaves ungrouped; vars accumulate across lines', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'hosts'), 'h1 a=1\n[g]\nh1 b="two words"\n[g:vars]\nc = {"k": [1, 2]}\n');
  const inv = await loadInventory([join(dir, 'hosts')]);
  t.deepEqual(inv.groups.get('ungrouped')!.hosts, []);
  t.deepEqual(inv.hosts.get('h1')!.vars, { a: 1, b: 'two words' });
  t.deepEqual(inv.groups.get('g')!.vars, { c: { k: [1, 2] } });
});

test('building an inventory by hand (e.g. add_host at runtime) and cycle checks', (t) => {
  const inv = emptyInventory();
  addGroup(inv, 'k8s');
  addGroup(inv, 'workers');
  addChildGroup(inv, 'k8s', 'workers');
  addHost(inv, 'w1', { group: 'workers', port: 2200 });
  reconcile(inv);
  t.deepEqual(groupHosts(inv, 'k8s'), ['w1']);
  t.is(inv.groups.get('workers')!.depth, 2);
  t.is(inv.hosts.get('w1')!.vars.ansible_port, 2200);
  t.throws(() => addChildGroup(inv, 'workers', 'k8s'), { instanceOf: BadInputError, message: /creates a cycle/ });
  t.throws(() => addHost(inv, 'w2', { group: 'nope' }), { instanceOf: BadInputError, message: /group nope is not defined/ });
});

test('YAML booleans are PyYAML\'s: yes/on/true are bools, y/n stay strings', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'inv.yml'), 'all:\n  hosts:\n    h1:\n      a: yes\n      b: Off\n      c: y\n      d: n\n      e: 0755\n');
  const inv = await loadInventory([join(dir, 'inv.yml')]);
  t.deepEqual(inv.hosts.get('h1')!.vars, { a: true, b: false, c: 'y', d: 'n', e: 493 });
});
