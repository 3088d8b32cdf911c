// script: its arguments (Ansible's refusals), the first shell word as shlex reads it, and the one
// command line that carries the upload, the run and the clean-up (every value of hostwire's quoted).
import test from 'ava';
import { getModule } from '../../src/modules/all.js';
import type { ModuleContext } from '../../src/modules/types.js';
import { splitScriptLine } from '../../src/modules/script/command-line.js';
import { scriptCommand } from '../../src/modules/script/script.js';

const script = getModule('script')!;

test('script arguments: free form or cmd, not both; decrypt as an Ansible bool; unknown refused', (t) => {
  t.like(script.args.parse({ _raw_params: 'a.sh x', creates: '/x', decrypt: 'no' }), { _raw_params: 'a.sh x', creates: '/x', decrypt: false });
  t.regex(JSON.stringify(script.args.safeParse({ _raw_params: 'a.sh', cmd: 'b.sh' }).error?.issues), /The 'cmd' argument cannot be used when other raw parameters are specified/);
  t.false(script.args.safeParse({}).success);
  t.false(script.args.safeParse({ cmd: '  ' }).success);
  t.false(script.args.safeParse({ cmd: "'a.sh" }).success, 'unbalanced quote');
  t.false(script.args.safeParse({ cmd: 'a.sh', bogus: 1 }).success);
});

test("script: the first word is the script as shlex reads it; the rest stays as written", (t) => {
  t.deepEqual(splitScriptLine('  hello.sh "a b" $HOME  '), { script: 'hello.sh', rest: ' "a b" $HOME' });
  t.deepEqual(splitScriptLine(`'my script.sh' -x`), { script: 'my script.sh', rest: ' -x' });
  t.deepEqual(splitScriptLine('my\\ script.sh'), { script: 'my script.sh', rest: '' });
});

test('script: one command line - private folder, quoted name, chdir and executable quoted, the folder removed on exit', (t) => {
  const cmd = scriptCommand({ name: "it's.sh", rest: ' "a b"', chdir: '/srv/x y', executable: '/opt/my py/python3 -u', env: { A: "x'y" } });
  t.true(cmd.startsWith('d=$(mktemp -d "${TMPDIR:-/tmp}/hostwire-script.XXXXXXXX") || exit 1\ntrap \'rm -rf -- "$d"\' EXIT\n'), cmd);
  t.true(cmd.includes(`cat > "$d"/'it'\\''s.sh' && chmod 0700 "$d"/'it'\\''s.sh'`), cmd);
  t.true(cmd.includes(`(export A='x'\\''y'; cd '/srv/x y' && /opt/my py/python3 -u "$d"/'it'\\''s.sh' "a b") < /dev/null`), cmd);
});

test('script: a relative chdir and a missing script fail as the action does, before anything runs', async (t) => {
  const ctx = { baseDir: '/nonexistent', check: false, probe: async () => t.fail('no read'), transport: { exec: () => t.fail('no exec') } } as unknown as ModuleContext;
  t.deepEqual(await script.run!(script.args.parse({ _raw_params: 'a.sh', chdir: 'srv' }), ctx), { changed: false, failed: true, msg: 'chdir srv must be an absolute path for a Unix-aware remote node' });
  const missing = await script.run!(script.args.parse({ _raw_params: 'nope.sh' }), ctx);
  t.like(missing, { changed: false, failed: true });
  t.regex(String(missing.msg), /^Could not find or access 'nope.sh'/);
});

test('script under --check: skipped with the action\'s message unless creates/removes decide', (t) => {
  t.true((script.skipsInCheck as (a: unknown) => boolean)(script.args.parse({ _raw_params: 'a.sh' })));
  t.false((script.skipsInCheck as (a: unknown) => boolean)(script.args.parse({ _raw_params: 'a.sh', creates: '/x' })));
  t.deepEqual(script.checkSkipped!(script.args.parse({ _raw_params: 'a.sh' })), { changed: false, skipped: true, msg: 'Check mode is not supported for this task.' });
});
