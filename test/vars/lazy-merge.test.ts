// templatedVars (lazy, recursive, cycle detection) and mergeVars (precedence, hash_behaviour=replace).
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { mergeVars, renderValue, templatedVars } from '../../src/engine/vars/index.js';

test('later layers win and dicts are replaced, not merged', (t) => {
  const defaults = { mtu: 1500, bridge: { name: 'br0', stp: false }, only_default: 1 };
  const group = { mtu: 9000, bridge: { name: 'br-ex' } };
  const extra = { mtu: 1450 };
  t.deepEqual(mergeVars(defaults, undefined, group, extra), { mtu: 1450, bridge: { name: 'br-ex' }, only_default: 1 });
  t.deepEqual(mergeVars(), {});
  t.not(mergeVars(defaults), defaults, 'returns a new object');
});

test('variables that reference variables render on access, in any order', (t) => {
  const v = templatedVars({ vm_dir: '{{ base }}/vms', base: '{{ root }}/lib', root: '/var', n: '{{ 2 + 3 }}', list: ['{{ root }}', 'x'] });
  t.is(v.vm_dir, '/var/lib/vms');
  t.is(v.n, '5', 'a template yields text, as Ansible 2.14 (non-native) gives it');
  t.deepEqual(v.list, ['/var', 'x']);
  t.is(renderValue('{{ vm_dir }}/disk.img', v), '/var/lib/vms/disk.img');
  t.true('root' in v);
  t.deepEqual(Object.keys(v).sort(), ['base', 'list', 'n', 'root', 'vm_dir']);
});

test('a lazy var is rendered once per view', (t) => {
  let reads = 0;
  const raw = { a: '{{ counter.hit }}' } as Record<string, unknown>;
  Object.defineProperty(raw, 'counter', { enumerable: true, get: () => ({ hit: ++reads }) });
  const v = templatedVars(raw);
  t.is(v.a, '1');
  t.is(v.a, '1');
  t.is(reads, 1);
});

test('a cycle fails with the chain named and the location', (t) => {
  const v = templatedVars({ a: '{{ b }}', b: 'x-{{ c }}', c: '{{ a }}', ok: 1 }, { file: 'group_vars/all.yml' });
  const e = t.throws(() => renderValue('{{ a }}', v, { file: 'site.yml', line: 4 }), { instanceOf: BadInputError });
  t.regex(e!.message, /recursive loop detected in template: a -> b -> c -> a/);
  t.regex(e!.message, /^group_vars\/all\.yml: /);
  t.is(v.ok, 1, 'unrelated vars still work');
  const self = templatedVars({ me: '{{ me }}' });
  t.throws(() => self.me, { message: /recursive loop detected in template: me -> me/ });
});

test('an undefined reference inside a lazy var names both', (t) => {
  const v = templatedVars({ a: '{{ nothere }}/x' }, { file: 'vars.yml', line: 2 });
  const e = t.throws(() => renderValue('{{ a }}', v), { instanceOf: BadInputError });
  t.regex(e!.message, /undefined variable 'nothere'.*\(in variable 'a'\)/);
});
