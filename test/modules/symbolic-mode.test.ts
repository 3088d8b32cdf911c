// Symbolic modes as Ansible computes them: every expectation is what ansible-core 2.14's own
// AnsibleModule._symbolic_mode_to_octal returned for the same previous mode and text (umask 0022).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { symbolicModeProblem, symbolicToOctal } from '../../src/modules/kit/symbolic-mode.js';
import { modeArg, resolveMode } from '../../src/modules/kit/mode.js';

interface Recorded {
  umask: string;
  cases: [string, boolean, string, string][];
  bad: [string, string][];
}
const recorded = JSON.parse(readFileSync(new URL('../../../test/fixtures/symbolic-modes.json', import.meta.url), 'utf8')) as Recorded;

test("symbolic modes give what Ansible's _symbolic_mode_to_octal gives", (t) => {
  t.true(recorded.cases.length > 100);
  for (const [prev, isDir, mode, want] of recorded.cases) {
    t.is(symbolicToOctal(parseInt(prev, 8), isDir, mode, parseInt(recorded.umask, 8)).toString(8), want, `${mode} on ${prev}${isDir ? ' (dir)' : ''}`);
  }
});

test('modes Ansible fails on are refused before the run, as mode must be in octal or symbolic form', (t) => {
  for (const [mode] of recorded.bad) {
    t.truthy(symbolicModeProblem(mode), mode);
    const r = modeArg.safeParse(mode);
    t.false(r.success);
    t.regex(JSON.stringify(r.error?.issues), /mode must be in octal or symbolic form \(bad symbolic permission for mode: /);
  }
  t.is(modeArg.parse('u=rwx,g=rx,o=rx'), 'u=rwx,g=rx,o=rx');
  t.is(modeArg.parse('644'), '0644');
  t.is(modeArg.parse(0o755), '0755');
  t.false(modeArg.safeParse(0o17777).success);
  t.false(modeArg.safeParse('75').success);
});

test('resolved against the file as it is, or as it will be created (0666/0777 less the umask)', (t) => {
  t.is(resolveMode('g+w', { exists: true, type: 'file', mode: '640' }), '0660');
  t.is(resolveMode('u+x', { exists: false, umask: 0o022 }, 'file'), '0744');
  t.is(resolveMode('a+X', { exists: false, umask: 0o027 }, 'directory'), '0751');
  t.is(resolveMode('0600', { exists: false }), '0600');
  t.throws(() => resolveMode('=r', { exists: true, type: 'file', mode: '644' }), { message: /umask was not read/ });
});
