// Host names are data (issue 18): a name with quotes is used as it is, `{{ }}` in a name is never
// rendered (not in inventory_hostname, not as the address a host without ansible_host connects to),
// and a control character (a newline would split the retry file) is refused naming file and line.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadInputError } from '../../src/errors.js';
import { connectionSettings, hostVars, loadInventory } from '../../src/engine/inventory/index.js';
import { templatedVars } from '../../src/engine/vars/lazy.js';
import { mergeVars } from '../../src/engine/vars/merge.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-h6names-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));

test('a {{ }} in a host name is never rendered: not in its vars, not as its address', async (t) => {
  const inv = await loadInventory([file('tpl.yml', 'all:\n  hosts:\n    "h6{{ 7*7 }}q":\n      note: "on {{ inventory_hostname }}"\n  children:\n    "g{{ 1 }}":\n      hosts:\n        "h6{{ 7*7 }}q":\n')]);
  const vars = templatedVars(mergeVars(hostVars(inv, 'h6{{ 7*7 }}q')));
  t.is(vars.inventory_hostname, 'h6{{ 7*7 }}q');
  t.is(vars.note, 'on h6{{ 7*7 }}q', 'inserted as text, not rendered again');
  t.deepEqual(vars.group_names, ['g{{ 1 }}']);
  t.is(connectionSettings(vars).host, 'h6{{ 7*7 }}q', 'the address is the name as written (it rendered to h649q)');
});

test("a host name with quotes is used as written", async (t) => {
  const inv = await loadInventory([file('q.yml', `all:\n  hosts:\n    "h'q\\"d":\n      ansible_host: 192.0.2.5\n`)]);
  const vars = templatedVars(mergeVars(hostVars(inv, `h'q"d`)));
  t.is(vars.inventory_hostname, `h'q"d`);
  t.is(connectionSettings(vars).host, '192.0.2.5');
});

test('a control character in a host name is refused with file and line (YAML, INI, -i list)', async (t) => {
  const yml = file('nl.yml', 'all:\n  hosts:\n    ok1: {}\n    "bad\\nname": {}\n');
  await t.throwsAsync(loadInventory([yml]), { instanceOf: BadInputError, message: `${yml}:4:5: host name "bad\\nname" contains a control character (U+000A); expected a name or address without control characters` });
  const ini = file('nl.ini', '[web]\nok1\n"bad\x01name"\n');
  await t.throwsAsync(loadInventory([ini]), { instanceOf: BadInputError, message: /nl\.ini:3:1: host name "bad\\u0001name" contains a control character \(U\+0001\)/ });
  await t.throwsAsync(loadInventory(['ok,bad\x1bname,']), { instanceOf: BadInputError, message: /host name "bad\\u001bname" contains a control character \(U\+001B\)/ });
});
