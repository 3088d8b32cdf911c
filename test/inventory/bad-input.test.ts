// Bad inventories: each must fail with a BadInputError that points at file:line:column
// and says what was expected. Files are under fixtures/bad/.
import test from 'ava';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadInputError } from '../../src/errors.js';
import { loadInventory } from '../../src/engine/inventory/index.js';
import { fixture } from './helpers.js';

// [source under fixtures/bad, file holding the error (relative to bad/), line, column, message]
const corpus: [string, string, number, number, RegExp][] = [
  ['yaml-syntax.yml', 'yaml-syntax.yml', 5, 6, /YAML syntax error: All mapping items must start at the same column/],
  ['cycle.yml', 'cycle.yml', 5, 9, /adding group 'b' as a child of 'a' creates a cycle.*expected a group hierarchy without cycles/],
  ['cycle.ini', 'cycle.ini', 5, 1, /group 'a' as a child of 'b' creates a cycle/],
  ['self-child.ini', 'self-child.ini', 2, 3, /group 'a' is listed as a child of itself/],
  ['bad-range.ini', 'bad-range.ini', 3, 1, /malformed host range in 'web\[1:\]': no end value; expected \[begin:end\]/],
  ['reversed-range.ini', 'reversed-range.ini', 2, 1, /malformed host range in 'web\[3:1\]': begin is after end/],
  ['undefined-child.ini', 'undefined-child.ini', 3, 1, /\[all:children\] includes undefined group 'missing'; expected a \[missing\] section/],
  ['vars-undefined.ini', 'vars-undefined.ini', 4, 1, /\[ghost:vars\] is for group 'ghost', which is not defined/],
  ['unknown-section.ini', 'unknown-section.ini', 1, 1, /section \[web:host\] has unknown type 'host'; expected \[web\], \[web:vars\] or \[web:children\]/],
  ['bad-hostvar.ini', 'bad-hostvar.ini', 2, 1, /expected key=value host variable after 'web1', got 'ansible_host'/],
  ['unclosed-quote.ini', 'unclosed-quote.ini', 2, 3, /cannot parse host line 'web1 a="x': No closing quotation/],
  ['invalid-section.ini', 'invalid-section.ini', 1, 1, /invalid section header '\[web servers\]'/],
  ['trailing-colon.ini', 'trailing-colon.ini', 2, 1, /invalid host 'web1:': a trailing ':' must be followed by a port number/],
  ['bad-var.ini', 'bad-var.ini', 2, 1, /expected key=value in \[web:vars\], got 'just-a-word'/],
  ['yaml-hosts-list.yml', 'yaml-hosts-list.yml', 3, 5, /invalid "hosts" entry for group "web": expected a mapping, found a list/],
  ['yaml-list.yml', 'yaml-list.yml', 1, 1, /YAML inventory must be a mapping of group names, got a list/],
  ['plugin.yml', 'plugin.yml', 1, 1, /inventory plugin configuration/],
  ['numeric-host.yml', 'numeric-host.yml', 3, 5, /host pattern 10 must be a string/],
  ['host-vars-string.yml', 'host-vars-string.yml', 3, 11, /host 'web1' in group 'web': expected a mapping of vars, got a string/],
  ['neither', 'neither', 3, 9, /not a valid inventory: as YAML, .* \(line 3\); as INI, invalid host 'all:'.* \(line 1\)/],
  ['gv-list', 'gv-list/group_vars/all.yml', 1, 1, /expected a mapping of variables, got a list/],
  ['gv-syntax', 'gv-syntax/group_vars/web/10-broken.yml', 2, 1, /YAML syntax error: Flow sequence/],
  ['gv-vault', 'gv-vault/host_vars/web1.yml', 1, 1, /this file is encrypted with ansible-vault but no vault password was given/],
];

for (const [source, file, line, column, message] of corpus) {
  test(`bad input: ${source}`, async (t) => {
    const err = await t.throwsAsync(loadInventory([fixture('bad', source)]), { instanceOf: BadInputError, message });
    t.deepEqual(err!.loc, { file: fixture('bad', file), line, column });
    t.true(err!.message.startsWith(`${fixture('bad', file)}:${line}:${column}: `));
    t.false(err!.message.includes('\n    at '), 'no stack trace in the message');
  });
}

test('missing inventory source', async (t) => {
  const missing = fixture('bad', 'does-not-exist.yml');
  const err = await t.throwsAsync(loadInventory([missing]), { instanceOf: BadInputError, message: /inventory source not found \(ENOENT\)/ });
  t.is(err!.loc?.file, missing);
});

test('unreadable entries: a dangling symlink in a directory inventory', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hostwire-inv-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'a.yml'), 'web:\n  hosts:\n    web1:\n');
  symlinkSync(join(dir, 'nowhere'), join(dir, 'b.yml'));
  const err = await t.throwsAsync(loadInventory([dir]), { instanceOf: BadInputError, message: /cannot read inventory file/ });
  t.is(err!.loc?.file, join(dir, 'b.yml'));
});
