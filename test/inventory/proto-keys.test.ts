// An inventory var or group var named `__proto__` (or `constructor`) is a var like any other, as in
// Ansible (ansible-inventory --list shows it): never the prototype of the host's vars, never dropped.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostVars, loadInventory } from '../../src/engine/inventory/index.js';
import { inventoryToJson } from '../../src/engine/inventory/to-json.js';
import { assertCleanObjectPrototype, assertPlainProtos } from '../helpers/own-keys.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-proto-inv-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));

const YAML_INV = `all:
  vars:
    constructor: from-all
  children:
    g:
      vars:
        __proto__: {gx: 1}
      hosts:
        h1:
          __proto__: {become: true}
          a: 1
        h2:
          a: 2
`;

const INI_INV = `[g]
h1 __proto__="{'become': True}" a=1 d="{'__proto__': {'failed': True}}"
h2 a=2

[g:vars]
__proto__={'gx': 1}

[all:vars]
constructor=from-all
`;

for (const [kind, name, text] of [['YAML', 'inv.yml', YAML_INV], ['INI', 'inv.ini', INI_INV]] as const) {
  test(`${kind}: a host var and a group var __proto__ are kept as vars, inherited by nothing`, async (t) => {
    const inv = await loadInventory([file(name, text)]);
    const h1 = hostVars(inv, 'h1');
    t.deepEqual(h1['__proto__'], { become: true }, 'the host var wins over the group var, as any var does');
    t.is(Object.getPrototypeOf(h1), Object.prototype);
    t.false('become' in h1);
    t.false('gx' in h1);
    t.is(h1['constructor'] as unknown, 'from-all');
    const h2 = hostVars(inv, 'h2');
    t.deepEqual(h2['__proto__'], { gx: 1 }, 'the group var reaches the group\'s other host');
    t.false('gx' in h2);
    if (kind === 'INI') t.is(JSON.stringify(h1.d), '{"__proto__":{"failed":true}}', 'a Python dict literal keeps the key');
    const listed = inventoryToJson(inv) as { _meta: { hostvars: Record<string, Record<string, unknown>> } };
    t.deepEqual(JSON.parse(JSON.stringify(listed._meta.hostvars.h1!['__proto__'])), { become: true }, '--list shows it');
    assertPlainProtos(t, [h1, h2, listed]);
    assertCleanObjectPrototype(t);
  });
}
