// A mapping key `__proto__` (or `constructor`) is an ordinary key, as in Ansible, where every mapping is a
// Python dict: PyYAML reads `__proto__: {x: 1}` as {'__proto__': {'x': 1}}, and a module result, a fact
// or a set_fact keeps it as data. In JS a plain `obj[key] = v` / Object.assign would set the object's
// prototype instead (the key vanishes, `x` reads 1 through inheritance, and a result could inherit
// `failed`). Host output here is the recorded shape a module prints (JSON), run through a native
// module's parse and through the fallback (a library/ module run by the host's Python).
import test from 'ava';
import { z } from 'zod';
import { registerModule } from '../../src/modules/all.js';
import { parseYaml } from '../../src/engine/yaml-source.js';
import { parseModuleArgs } from '../../src/modules/kit/ansible-coerce.js';
import { parseIniFact } from '../../src/facts/local-facts.js';
import { parseNmDhcp6 } from '../../src/modules/ovs_gateway/parse.js';
import { assertCleanObjectPrototype, assertPlainProtos } from '../helpers/own-keys.js';
import { localWorkspace, run } from './helpers.js';

/** What a host sends back: its own `failed`/`changed` under `__proto__` must not become the result's. */
const HOST_JSON = '{"__proto__": {"failed": false, "changed": false, "x": 1}}';
const FAILED_JSON = '{"failed": true, "msg": "boom", "__proto__": {"failed": false, "changed": false, "x": 1}}';
const CHANGED_JSON = '{"changed": true, "__proto__": {"failed": true, "changed": false, "x": 1}}';

// A native module's parse of a host's JSON output (JSON.parse, then the result built from it).
registerModule({
  name: 'hwtest_host_json',
  doc: { description: 'returns the JSON it is given, as parsed from a host', args: {}, example: '', check: 'full', diff: 'none' },
  args: z.object({ json: z.string() }),
  environment: 'irrelevant',
  run: async (args) => ({ changed: false, ...(JSON.parse(args.json) as Record<string, unknown>) }),
});

const fallbackModule = (json: string) => `#!/usr/bin/python
# Prints a recorded module result holding a __proto__ key.
import sys
from ansible.module_utils.basic import _load_params


def main():
    _load_params()
    print(${JSON.stringify(json)})
    sys.exit(0)


if __name__ == '__main__':
    main()
`;

test('YAML: `__proto__:` is a key of the mapping (and of a merge), not its prototype', (t) => {
  const v = parseYaml('__proto__: {x: 1}\nname: a\nm:\n  <<: {constructor: c, __proto__: {y: 2}, toString: s}\n', 'vars.yml') as Record<string, unknown>;
  t.deepEqual(Object.keys(v), ['__proto__', 'name', 'm']);
  t.deepEqual(v['__proto__'], { x: 1 });
  t.is(Object.getPrototypeOf(v), Object.prototype);
  t.false('x' in v);
  t.deepEqual(Object.keys(v.m as object), ['constructor', '__proto__', 'toString'], 'merged keys named like Object.prototype members are kept');
  t.is((v.m as Record<string, unknown>)['constructor'] as unknown, 'c');
  t.is(JSON.stringify(v), '{"__proto__":{"x":1},"name":"a","m":{"constructor":"c","__proto__":{"y":2},"toString":"s"}}');
  assertPlainProtos(t, v);
});

test('host data: a fact file section [__proto__] and a device named __proto__ stay keys; Object.prototype is untouched', (t) => {
  const facts = parseIniFact('[__proto__]\nfailed = yes\n[constructor]\nx = 1\n');
  t.is(JSON.stringify(facts), '{"__proto__":{"failed":"yes"},"constructor":{"x":"1"}}');
  t.deepEqual(Object.keys(facts!), ['__proto__', 'constructor']);
  const dhcp = parseNmDhcp6({ out: 'GENERAL.DEVICE:__proto__\nDHCP6.OPTION[1]:dhcp6_client_id = 00:01:02:03\nDHCP6.OPTION[2]:ip6_address = 2001:db8::5\n' } as never);
  t.deepEqual(Object.keys(dhcp), ['__proto__']);
  t.like(dhcp['__proto__'], { duid: '00:01:02:03', addrs: ['2001:db8::5'] });
  assertPlainProtos(t, [facts, dhcp]);
  assertCleanObjectPrototype(t);
});

test('a playbook: __proto__ from a vars file, the inventory (INI), module results (native and fallback), set_fact, combine, from_json and update stays a key; failed/changed come from the result itself', async (t) => {
  const ws = localWorkspace(t, ['h1'], `[nodes:vars]\n__proto__={'become': True, 'gx': 1}\nconstructor=from-inventory\n`);
  ws.write('vars/proto.yml', '__proto__: {x: 1}\nname: a\n');
  ws.write('library/hw_proto_out.py', fallbackModule(HOST_JSON));
  ws.write('library/hw_proto_failed.py', fallbackModule(FAILED_JSON));
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  vars_files: [vars/proto.yml]
  vars:
    host_text: '${HOST_JSON}'
  tasks:
    - name: native failed
      hwtest_host_json: { json: '${FAILED_JSON}' }
      register: r_failed
      ignore_errors: true
    - name: native changed
      hwtest_host_json: { json: '${CHANGED_JSON}' }
      register: r_changed
    - name: native ok
      hwtest_host_json: { json: '${HOST_JSON}' }
      register: r_ok
    - name: fallback ok
      hw_proto_out: {}
      register: f_ok
    - name: fallback failed
      hw_proto_failed: {}
      register: f_failed
      ignore_errors: true
    - name: before set_fact
      assert:
        that:
          - "__proto__ == {'x': 1} and name == 'a'"
          - "x is not defined and gx is not defined and become is not defined"
    - name: set_fact
      set_fact:
        __proto__: { sx: 1 }
        merged: "{{ {'a': 1} | combine(r_ok) }}"
        deep: "{{ r_ok | combine({'__proto__': {'y': 2}}, recursive=true) }}"
        parsed: "{{ host_text | from_json }}"
        updated: "{% set d = {} %}{% set _ = d.update(r_ok) %}{{ d }}"
        dicted: "{{ dict(r_ok) }}"
    - name: check
      assert:
        that:
          - "__proto__ == {'sx': 1} and sx is not defined"
          - "hostvars['h1']['__proto__'] is defined"
          - "r_failed is failed and r_changed is changed and r_changed is not failed and r_ok is not failed and r_ok is not changed"
          - "f_ok is not failed and f_ok is not changed and f_failed is failed"
          - "r_ok['__proto__'] == {'failed': false, 'changed': false, 'x': 1}"
          - "f_ok['__proto__'].x == 1"
          - "r_ok.x is not defined and 'x' not in r_ok and f_ok.x is not defined"
          - "merged['__proto__'].x == 1 and merged.x is not defined and merged.a == 1"
          - "deep['__proto__'] == {'failed': false, 'changed': false, 'x': 1, 'y': 2}"
          - "parsed['__proto__'].x == 1 and parsed.x is not defined"
          - "updated['__proto__'].x == 1 and updated.x is not defined"
          - "dicted['__proto__'].x == 1 and dicted.x is not defined"
          - "'constructor' not in r_ok and r_ok.constructor is not defined and r_ok.get('constructor') is none"
          - "constructor == 'from-inventory'"
          - "toString is not defined"
`);
  const status = Object.fromEntries(r.results.map((x) => [x.task.name, x.result.status]));
  t.deepEqual(r.results.filter((x) => x.result.status === 'failed' && !x.result.ignored).map((x) => `${x.task.name}: ${x.result.msg}`), []);
  t.like(status, { 'before set_fact': 'ok', 'native failed': 'failed', 'native changed': 'changed', 'native ok': 'ok', 'fallback ok': 'ok', 'fallback failed': 'failed', check: 'ok' });
  t.deepEqual(r.results.filter((x) => x.result.status === 'failed' && !x.result.ignored).map((x) => `${x.task.name}: ${x.result.msg}`), []);
  const ok = r.results.find((x) => x.task.name === 'native ok')!.result.result!;
  t.deepEqual(Object.keys(ok).filter((k) => k === '__proto__' || k === 'x'), ['__proto__']);
  t.false('x' in ok);
  const fb = r.results.find((x) => x.task.name === 'fallback ok')!.result.result!;
  t.true(Object.prototype.hasOwnProperty.call(fb, '__proto__'));
  t.false('x' in fb);
  for (const x of r.results) assertPlainProtos(t, x.result.result, x.task.name);
  assertCleanObjectPrototype(t);
});

test('module args: a __proto__ key passes the argument check as a key; one the schema would drop is refused, named', (t) => {
  const given = JSON.parse('{"__proto__": {"x": 1}, "a": "v"}') as Record<string, unknown>;
  const kept = parseModuleArgs(z.record(z.unknown()), given);
  t.true(kept.success);
  t.is(JSON.stringify(kept.data), '{"__proto__":{"x":1},"a":"v"}');
  const strict = parseModuleArgs(z.object({ a: z.string() }).strict(), given);
  t.false(strict.success);
  t.deepEqual(!strict.success && strict.error.issues.map((i) => (i.code === 'unrecognized_keys' ? i.keys : i.path)), [['__proto__']]);
  const stripped = parseModuleArgs(z.object({ a: z.string() }), given);
  t.false(stripped.success, 'never dropped silently');
  t.regex(!stripped.success ? stripped.error.issues[0]!.message : '', /a key '__proto__' \(under the arguments\) cannot be kept/);
});
