// copy/template validate and backup: the command built from Ansible's `validate` text (no shell reads
// the value), its place in the verified write, and the backup name of Ansible's backup_local.
import test from 'ava';
import { validateArg, validateCommand } from '../../src/modules/kit/validate-command.js';
import { backupCommand, planContent } from '../../src/modules/kit/content-plan.js';
import { buildWriteScript } from '../../src/transports/write-script.js';
import { getModule } from '../../src/modules/all.js';

test('validate: %s is the temp file, every other word quoted, %% a percent sign', (t) => {
  t.is(validateCommand('visudo -cf %s'), 'visudo -cf "$t"');
  t.is(validateCommand('nginx -t -c %s'), 'nginx -t -c "$t"');
  t.is(validateCommand("sh -c 'test -s \"$1\"; rm -rf /' x %s"), `sh -c 'test -s "$1"; rm -rf /' x "$t"`);
  t.is(validateCommand('check --file=%s --pct=5%%'), 'check --file="$t" --pct=5%');
  t.is(validateCommand('a;b $(id) %s'), `'a;b' '$(id)' "$t"`);
});

test('validate: text without %s, or not a command line, is refused before the run', (t) => {
  t.regex(JSON.stringify(validateArg.safeParse('visudo -c').error?.issues), /validate must contain %s: visudo -c/);
  t.regex(JSON.stringify(validateArg.safeParse("x 'y %s").error?.issues), /expected a command line: unterminated single quote/);
  t.false(getModule('copy')!.args.safeParse({ dest: '/x', content: 'a', validate: 'true' }).success);
  t.true(getModule('template')!.args.safeParse({ dest: '/x', src: 'a.j2', validate: 'true %s' }).success);
});

test('validate runs on the temp file after its attributes are set and before the mv', (t) => {
  const script = buildWriteScript('/etc/sudoers', 'x\n', { mode: '0440', validate: 'visudo -cf "$t"' }).split('\n');
  const at = (s: string) => script.findIndex((l) => l.startsWith(s));
  t.true(at('chmod "$m"') < at('visudo') && at('visudo') < at('mv -f'));
  t.regex(script[at('visudo')], /visudo -cf "\$t" >&2 \|\| \{ r=\$\?; echo "hostwire: failed to validate the new \$p \(exit status \$r\); the file was left unchanged" >&2; exit 76; \}/);
});

test("backup: Ansible's name <path>.<pid>.<date>~, reported as backup_file; validate passed to the write", (t) => {
  t.is(backupCommand('/etc/a b'), `{ b='/etc/a b'."$$.$(date +%Y-%m-%d@%H:%M:%S)~" && cp -p -- '/etc/a b' "$b"; }`);
  const st = { exists: true, type: 'file' as const, mode: '644', owner: 'root', group: 'root', uid: 0, gid: 0, content: Buffer.from('old\n') };
  const [backup, write] = planContent(st, { path: '/etc/x', content: 'new\n', backup: true, validate: 'true "$t"' });
  t.is(backup.reports, 'backup_file');
  t.is(write.write?.validate, 'true "$t"');
});
