// The controller's ansible-core: found through its interpreter (here a wrapper that logs each start),
// remembered on the controller (0600) so a later run does not start Python to ask again, and asked
// again once the interpreter (or ansible-core's release file, or its package folder) changes.
import test from 'ava';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findAnsibleCore, interpreterOf } from '../../src/fallback/ansible-core.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-f5-core-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test('probed once, remembered, probed again after the interpreter changes', (t) => {
  const log = path.join(dir, 'starts.log');
  const py = path.join(dir, 'python');
  writeFileSync(py, `#!/bin/sh\necho start >> ${log}\nexec /usr/bin/python3 "$@"\n`);
  chmodSync(py, 0o755);
  const env = { PATH: '/usr/bin:/bin', HOSTWIRE_ANSIBLE_PYTHON: py, XDG_CACHE_HOME: path.join(dir, 'cache') };
  const starts = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);
  const first = findAnsibleCore({ ...env });
  t.truthy(first.core, 'ansible-core is installed on this controller (scripts/setup.sh)');
  t.regex(first.core!.version, /^2\./);
  t.true(existsSync(path.join(first.core!.packageDir, 'modules', 'getent.py')));
  t.is(starts(), 1);
  t.is(statSync(path.join(dir, 'cache/hostwire/ansible-core.json')).mode & 0o777, 0o600);
  t.deepEqual(findAnsibleCore({ ...env }).core, first.core);
  t.is(starts(), 1, 'the second lookup started no Python');
  const later = new Date(Date.now() + 5000);
  utimesSync(py, later, later);
  findAnsibleCore({ ...env });
  t.is(starts(), 2, 'a changed interpreter is asked again');
});

test('missing: every interpreter tried is named', (t) => {
  const r = findAnsibleCore({ PATH: '', HOSTWIRE_ANSIBLE_PYTHON: '/bin/false', XDG_CACHE_HOME: path.join(dir, 'cache2') });
  t.is(r.core, undefined);
  t.deepEqual(r.tried, ['/bin/false']);
});

test('shebang lines: a path, env with a name on PATH, nothing', (t) => {
  t.is(interpreterOf('#! /usr/bin/python3'), '/usr/bin/python3');
  t.is(interpreterOf('#!/usr/bin/env sh', { PATH: '/bin:/usr/bin' }), '/bin/sh');
  t.is(interpreterOf('no shebang'), undefined);
});
