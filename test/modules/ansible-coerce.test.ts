// Module arguments convert as AnsibleModule's argument spec converts them (module_utils/common/
// validation.py check_type_int / bool / float / list / str), read from the module's own schema.
import test from 'ava';
import { parseModuleArgs } from '../../src/modules/kit/ansible-coerce.js';
import { getModule } from '../../src/modules/all.js';

const args = (module: string, raw: Record<string, unknown>) => {
  const r = parseModuleArgs(getModule(module)!.args, raw);
  return r.success ? (r.data as Record<string, unknown>) : { error: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
};

test('text for an int argument becomes the int (check_type_int: Python int())', (t) => {
  t.like(args('ip_link', { name: 'br0', kind: 'bridge', mtu: '1450' }), { mtu: 1450 });
  t.like(args('ip_link', { name: 'br0', kind: 'bridge', mtu: ' +1_450 ' }), { mtu: 1450 }, 'sign, underscores and spaces as int() takes them');
  t.like(args('wait_for', { path: '/x', timeout: '10', delay: '0' }), { timeout: 10, delay: 0 });
  t.true('error' in args('ip_link', { name: 'br0', kind: 'bridge', mtu: '1450.0' }), 'int() refuses a float text');
  t.true('error' in args('ip_link', { name: 'br0', kind: 'bridge', mtu: 'big' }));
});

test('text for a bool argument becomes the bool (check_type_bool: BOOLEANS)', (t) => {
  for (const [text, want] of [['yes', true], ['True', true], ['on', true], ['1', true], ['no', false], ['False', false], ['off', false], ['0', false]] as const) {
    t.like(args('lineinfile', { path: '/x', line: 'a', create: text }), { create: want }, text);
  }
  t.like(args('lineinfile', { path: '/x', line: 'a', create: 1 }), { create: true }, 'the number 1');
  t.true('error' in args('lineinfile', { path: '/x', line: 'a', create: 'maybe' }));
});

test('a number or bool for a text argument becomes its Python text; accepted values stay', (t) => {
  t.like(args('lineinfile', { path: '/x', line: 42 }), { line: '42' });
  t.like(args('lineinfile', { path: '/x', line: true }), { line: 'True' });
  t.like(args('ip_route', { dst: '10.0.0.0/8', via: '10.1.0.1', table: 'main' }), { table: 'main' }, 'text where text is accepted');
});

test('a value given under an alias converts as its argument does (aliases are mapped before check_type_*)', (t) => {
  t.like(args('blockinfile', { dest: '/x', content: 42 }), { path: '/x', block: '42' }, 'content is an alias of block (str)');
  t.like(args('uri', { url: 'http://127.0.0.1/', user: 'u', password: 1234 }), { url_username: 'u', url_password: '1234' }, 'a numeric password');
  t.like(args('lineinfile', { dest: '/x', line: 'a', create: 'yes' }), { path: '/x', create: true });
  t.like(args('file', { name: 42, state: 'touch' }), { path: '42' }, 'name is an alias of path (path: str)');
  t.true('error' in args('file', { name: '/a', path: '/b', state: 'touch' }), 'two different values for one argument are still refused');
});
