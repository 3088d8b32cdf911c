// Data is never rendered as a template: registered results, facts (gathered or set by a module),
// set_fact values, loop items, lookup output and `!unsafe` values keep their `{{ }}` text, through
// variable indirection, filters and concatenation (issue 18, "data from a managed host is templated").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { loadInventory } from '../../src/engine/inventory/index.js';
import { hostVars } from '../../src/engine/inventory/index.js';
import { newHostState } from '../../src/engine/runner/host-state.js';
import { rootScope, taskVars, type RunVarsContext } from '../../src/engine/runner/task-vars.js';
import type { PlayDef } from '../../src/engine/playbook/types.js';
import { parseYaml } from '../../src/engine/yaml-source.js';
import { parseExtraVars } from '../../src/cli/extra-vars.js';
import { renderValue, templatedVars, type Vars } from '../../src/engine/vars/index.js';

const CONTROLLER_SECRET = 'controller-only-content-8f3a';

/** A controller file the hostile text points at: its content must never come out. */
function controllerFile(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-unsafe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'controller.txt');
  writeFileSync(file, CONTROLLER_SECRET);
  return file;
}

function context(playVars: Vars = {}, extraVars: Vars = {}): RunVarsContext {
  const play = { vars: playVars, tags: [] } as unknown as PlayDef;
  return { play, playFileVars: {}, extraVars, hosts: new Map(), playHosts: ['n1'], groups: {}, check: false, diff: false, playbookDir: '/nonexistent' };
}

function hostileHost(file: string, playVars: Vars = {}) {
  const hostile = `{{ lookup('file', '${file}') }}`;
  const h = newHostState('n1', {});
  const ctx = context(playVars);
  ctx.hosts.set('n1', h);
  return { h, ctx, hostile, vars: (extra?: Vars) => taskVars(ctx, h, rootScope(ctx.play), undefined, extra) };
}

test('a registered result is data: its braces reach the module args as they are', (t) => {
  const { h, hostile, vars } = hostileHost(controllerFile(t), { relay: '{{ banner.stdout }}', wrapped: 'motd={{ banner.stdout | upper }}!' });
  h.runtimeVars.banner = { stdout: hostile, stdout_lines: [hostile], rc: 0 };
  const v = vars();
  t.is(renderValue('{{ banner.stdout }}', v), hostile);
  t.deepEqual(renderValue({ content: '{{ banner.stdout_lines[0] }}' }, v), { content: hostile });
  t.is(v.relay, hostile, 'a play var that reads the result is rendered once, not twice');
  t.is(v.wrapped, `motd=${hostile.toUpperCase()}!`, 'filters and concatenation keep the text');
  t.is(renderValue('{{ relay ~ "" }}', v), hostile);
  t.is(renderValue('{{ hostvars.n1.banner.stdout }}', v), hostile);
  t.false(JSON.stringify(v.banner).includes(CONTROLLER_SECRET));
});

test('gathered facts and facts set by modules (ansible_facts, set_fact) are data', (t) => {
  const { h, hostile, vars } = hostileHost(controllerFile(t), { codename: '{{ ansible_distribution_release }}' });
  h.facts = { ansible_distribution_release: hostile, ansible_distribution: 'Fedora' };
  h.runtimeVars.from_set_fact = hostile;
  h.runtimeVars.module_fact = { nested: [hostile] };
  const v = vars();
  t.is(v.ansible_distribution_release, hostile);
  t.is(v.codename, hostile);
  t.is(renderValue('{{ ansible_facts.ansible_distribution_release }}', v), hostile);
  t.is(renderValue('{{ from_set_fact }}', v), hostile);
  t.deepEqual(renderValue('{{ module_fact }}', v), { nested: [hostile] });
});

test('loop items are data', (t) => {
  const { hostile, vars } = hostileHost(controllerFile(t));
  const v = vars({ item: hostile, ansible_loop_var: 'item' });
  t.is(renderValue('{{ item }}', v), hostile);
  t.is(v.item, hostile);
});

test('a play var overriding a fact of the same name is still a template', (t) => {
  const { h, vars } = hostileHost(controllerFile(t), { ansible_distribution: '{{ "ov" ~ "erride" }}' });
  h.facts = { ansible_distribution: 'Fedora' };
  t.is(vars().ansible_distribution, 'override');
});

test('what a lookup read is output: stored by set_fact, it is never rendered', (t) => {
  const file = controllerFile(t);
  const motd = path.join(path.dirname(file), 'motd');
  writeFileSync(motd, `{{ lookup('file', '${file}') }}`);
  const { h, vars } = hostileHost(file);
  const read = renderValue(`{{ lookup('file', '${motd}') }}`, vars());
  t.is(read, `{{ lookup('file', '${file}') }}`);
  h.runtimeVars.read = read; // what set_fact stores
  t.is(renderValue('{{ read }}', vars()), read);
  t.is(renderValue("{{ lookup('env', 'HW_UNSAFE_T') }}", templatedVars({}), undefined), '');
});

test('!unsafe in a playbook vars file, an -e file and an inventory: the text is kept, never rendered', async (t) => {
  const file = controllerFile(t);
  const dir = path.dirname(file);
  const playVars = parseYaml(`pw: !unsafe '{{ lookup("file", "${file}") }}'\nalias: "{{ pw }}"\nlist: [!unsafe '{{ x }}', '{{ 1 + 1 }}']\n`, 'vars.yml') as Vars;
  const { vars } = hostileHost(file, playVars);
  const v = vars();
  t.is(v.pw, `{{ lookup("file", "${file}") }}`);
  t.is(v.alias, v.pw);
  t.deepEqual(v.list, ['{{ x }}', '2']);
  t.deepEqual(renderValue({ a: '{{ pw | upper }}' }, v), { a: `{{ LOOKUP("FILE", "${file.toUpperCase()}") }}` });

  const extraFile = path.join(dir, 'extra.yml');
  writeFileSync(extraFile, "token: !unsafe '{{ nope }}'\n");
  const extra = parseExtraVars([`@${extraFile}`]);
  t.is(renderValue('{{ token }}', templatedVars(extra)), '{{ nope }}');

  const invFile = path.join(dir, 'hosts.yml');
  writeFileSync(invFile, `all:\n  hosts:\n    n1:\n      motd: !unsafe "{{ lookup('file', '${file}') }}"\n`);
  const inv = await loadInventory([invFile]);
  const hv = hostVars(inv, 'n1');
  t.is(renderValue('{{ motd }}', templatedVars(hv)), `{{ lookup('file', '${file}') }}`);
  t.is(renderValue('{{ hostvars.n1.motd }}', templatedVars({ hostvars: { n1: hv } })), `{{ lookup('file', '${file}') }}`);
  // Copied inventory vars keep the mark in Ansible's own JSON shape (what ansible-inventory --list prints).
  t.deepEqual(JSON.parse(JSON.stringify(hv.motd)), { __ansible_unsafe: `{{ lookup('file', '${file}') }}` });
});

test('!unsafe on a mapping or a list marks every string inside (playbook, -e file, inventory)', async (t) => {
  const file = controllerFile(t);
  const dir = path.dirname(file);
  const yaml = "cfg: !unsafe {a: '{{ x }}', list: [1, '{{ y }}']}\nitems: !unsafe\n  - '{{ x }}'\nx: 1\ny: 2\n";
  const expected = { cfg: { a: '{{ x }}', list: [1, '{{ y }}'] }, items: ['{{ x }}'] };
  const fromPlaybook = templatedVars(parseYaml(yaml, 'vars.yml') as Vars);
  t.deepEqual(renderValue({ cfg: '{{ cfg }}', items: '{{ items }}' }, fromPlaybook), expected);
  const extraFile = path.join(dir, 'extra.yml');
  writeFileSync(extraFile, yaml);
  t.deepEqual(renderValue({ cfg: '{{ cfg }}', items: '{{ items }}' }, templatedVars(parseExtraVars([`@${extraFile}`]))), expected);
  const invFile = path.join(dir, 'hosts.yml');
  writeFileSync(invFile, `all:\n  hosts:\n    n1:\n${yaml.replace(/^/gm, '      ').trimEnd()}\n`);
  const hv = hostVars(await loadInventory([invFile]), 'n1');
  t.deepEqual(renderValue({ cfg: '{{ cfg }}', items: '{{ items }}' }, templatedVars(hv)), expected);
});

test("hostvars[other]: its inventory templates render in that host's context, its facts and results stay data", (t) => {
  const file = controllerFile(t);
  const { ctx, h, vars } = hostileHost(file);
  const other = newHostState('n2', { ansible_host: '10.3.91.12', vip: "{{ ansible_host | regex_replace('\\.[0-9]+$', '.200') }}", name_of: '{{ inventory_hostname }}' });
  other.facts = { ansible_hostile: `{{ lookup('file', '${file}') }}` };
  other.runtimeVars = { r: { stdout: `{{ lookup('file', '${file}') }}` } };
  ctx.hosts.set('n2', other);
  t.truthy(h);
  t.is(renderValue("{{ hostvars['n2'].vip }}", vars()), '10.3.91.200');
  t.is(renderValue("{{ hostvars['n2'].name_of }}", vars()), 'n2');
  t.is(renderValue("{{ hostvars['n2'].ansible_hostile }}", vars()), `{{ lookup('file', '${file}') }}`);
  t.is(renderValue("{{ hostvars['n2'].r.stdout }}", vars()), `{{ lookup('file', '${file}') }}`);
});
