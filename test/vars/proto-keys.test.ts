// Templates treat `__proto__`, `constructor` and the other names Object.prototype has as ordinary dict
// keys and variable names, as Jinja does on Python dicts: combine, update, dict(), setdefault, from_json,
// from_yaml and `in` keep or find only the dict's own keys; nothing is read through inheritance.
import test from 'ava';
import { evalExpression, renderValue } from '../../src/engine/vars/index.js';
import { assertCleanObjectPrototype, assertPlainProtos } from '../helpers/own-keys.js';

const host = JSON.parse('{"__proto__": {"failed": false, "changed": false, "x": 1}}') as Record<string, unknown>;
const vars = { host, text: '{"__proto__": {"x": 1}}', ytext: '__proto__: {x: 1}\nconstructor: c\n' };
const own = (v: unknown, k: string) => Object.prototype.hasOwnProperty.call(v, k);

test('combine, recursive combine, update, dict() and setdefault keep __proto__ as a key', (t) => {
  const out = [
    renderValue("{{ {'a': 1} | combine(host) }}", vars),
    renderValue("{{ host | combine({'__proto__': {'y': 2}}, recursive=true) }}", vars),
    renderValue("{{ {} | combine({'__proto__': {'y': 2}}, recursive=true) }}", vars),
    renderValue('{% set d = {} %}{% set _ = d.update(host) %}{{ d }}', vars),
    renderValue('{{ dict(host) }}', vars),
    renderValue("{{ dict([['__proto__', {'x': 1}]]) }}", vars),
    renderValue("{{ dict(__proto__={'x': 1}) }}", vars),
    renderValue("{{ {'__proto__': {'x': 1}} }}", vars),
    renderValue("{% set d = {} %}{% set _ = d.setdefault('__proto__', {'x': 1}) %}{{ d }}", vars),
  ] as Record<string, unknown>[];
  for (const o of out) {
    t.true(own(o, '__proto__'), JSON.stringify(o));
    t.false('x' in o);
    t.false('failed' in o);
  }
  t.is(JSON.stringify(out[1]), '{"__proto__":{"failed":false,"changed":false,"x":1,"y":2}}');
  t.is(JSON.stringify(out[2]), '{"__proto__":{"y":2}}', 'a key the dict does not have is not merged into Object.prototype');
  assertPlainProtos(t, out);
  assertCleanObjectPrototype(t);
});

test('from_json and from_yaml keep the key; `in`, .get, pop and attribute reads see only own keys', (t) => {
  const j = renderValue('{{ text | from_json }}', vars) as Record<string, unknown>;
  const y = renderValue('{{ ytext | from_yaml }}', vars) as Record<string, unknown>;
  t.true(own(j, '__proto__'));
  t.false('x' in j);
  t.deepEqual(Object.keys(y), ['__proto__', 'constructor']);
  t.false('x' in y);
  t.is(evalExpression("'constructor' in {}", vars), false);
  t.is(evalExpression("'__proto__' in {}", vars), false);
  t.is(evalExpression("'__proto__' in host", vars), true);
  t.is(evalExpression("{}.get('constructor') is none", vars), true);
  t.is(evalExpression("{}.pop('toString', 'gone')", vars), 'gone');
  t.is(evalExpression('host.x is not defined', vars), true);
  t.is(evalExpression('host.__proto__.x', vars), 1);
  t.is(evalExpression('({}).constructor is not defined', vars), true);
  assertPlainProtos(t, [j, y]);
});

test('a variable named like an Object.prototype member is undefined unless defined', (t) => {
  t.throws(() => renderValue('{{ constructor }}', vars), { message: /undefined variable 'constructor'/ });
  t.throws(() => renderValue('{{ __proto__ }}', vars), { message: /undefined variable '__proto__'/ });
  t.is(evalExpression('toString is defined', vars), false);
  t.is(renderValue('{{ constructor }}', { constructor: 'mine' }), 'mine');
});
