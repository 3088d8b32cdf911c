// The file editors done natively for issue 17 on a real lab host: converge, converge again (no
// change), drift by hand, --check --diff reports it without touching the host, a normal run fixes it.
import test, { type ExecutionContext } from 'ava';
import { convergeCycle, labHost, moduleRunner, type LabHost, type ModuleRunner } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
let host: LabHost;
let run: ModuleRunner;

test.before(async () => {
  host = await labHost(LAB);
  run = moduleRunner(host);
});

test.after.always(async () => {
  await host?.close();
});

const cycle = (t: ExecutionContext, name: string, args: Record<string, unknown>, drift: string, read: string) => convergeCycle(t, host, run, name, args, drift, read);

test.serial('blockinfile: a marked block after an anchor, kept, drifted, checked, fixed, removed', async (t) => {
  t.timeout(3 * 60_000);
  const f = '/etc/n6/hosts.conf';
  await host.sh(`mkdir -p /etc/n6 && printf '127.0.0.1 localhost\\n# cluster\\n::1 localhost\\n' > ${f} && chmod 0644 ${f}`);
  const args = { path: f, insertafter: '^# cluster$', block: '10.0.0.1 a\n10.0.0.2 b\n', mode: '0640' };
  const checked = await cycle(t, 'blockinfile', args, `sed -i 's/10.0.0.2 b/10.0.0.9 b/' ${f}`, `cat ${f}; stat -c %a ${f}`);
  t.regex(checked.diff!.map((d) => d.before).join(''), /10\.0\.0\.9 b/);
  t.is(await host.sh(`cat ${f}`), '127.0.0.1 localhost\n# cluster\n# BEGIN ANSIBLE MANAGED BLOCK\n10.0.0.1 a\n10.0.0.2 b\n# END ANSIBLE MANAGED BLOCK\n::1 localhost\n');
  t.is(await host.sh(`stat -c %a ${f}`), '640\n');
  // absent: --check predicts, changes nothing; the real run removes the block and only it
  const absent = { path: f, state: 'absent' };
  t.true((await run('blockinfile', absent, { check: true })).changed);
  t.regex(await host.sh(`cat ${f}`), /BEGIN ANSIBLE MANAGED BLOCK/);
  t.true((await run('blockinfile', absent)).changed);
  t.is(await host.sh(`cat ${f}`), '127.0.0.1 localhost\n# cluster\n::1 localhost\n');
  t.false((await run('blockinfile', absent)).changed);
  // create in a new folder; --check first creates nothing
  const created = { path: '/etc/n6/new/x.conf', block: 'k=v', create: true };
  t.true((await run('blockinfile', created, { check: true })).changed);
  t.is(await host.sh('ls /etc/n6/new 2>/dev/null || echo none'), 'none\n');
  t.true((await run('blockinfile', created)).changed);
  t.false((await run('blockinfile', created)).changed);
  t.is(await host.sh('cat /etc/n6/new/x.conf; stat -c %a /etc/n6/new/x.conf'), '# BEGIN ANSIBLE MANAGED BLOCK\nk=v\n# END ANSIBLE MANAGED BLOCK\n644\n');
});

test.serial('replace: every matching line, only inside the section; drifted, checked, fixed; a missing file fails', async (t) => {
  t.timeout(3 * 60_000);
  const f = '/etc/n6/sshd.conf';
  await host.sh(`mkdir -p /etc/n6 && printf 'PermitRootLogin yes\\nMatch User x\\n#PermitRootLogin yes\\n' > ${f}`);
  const args = { path: f, regexp: '^#?PermitRootLogin .*$', replace: 'PermitRootLogin no', before: 'Match User', backup: true };
  const checked = await cycle(t, 'replace', args, `sed -i '1s/no/prohibit-password/' ${f}`, `cat ${f}`);
  t.regex(checked.diff![0]!.before!, /^PermitRootLogin prohibit-password\n/);
  t.deepEqual(checked.changes, [`back up ${f}`, `1 replacements made in ${f}`]);
  // only the section before `Match` was edited; the backup holds the drifted file
  t.is(await host.sh(`cat ${f}`), 'PermitRootLogin no\nMatch User x\n#PermitRootLogin yes\n');
  // the newest backup (the first converge kept one of the original too, maybe in another second)
  t.regex(await host.sh(`cat "$(ls -t ${f}.*~ | head -n1)" | head -n1`), /prohibit-password/);
  await t.throwsAsync(run('replace', { path: '/etc/n6/none', regexp: 'a' }), { message: /Path \/etc\/n6\/none does not exist !/ });
});

test.serial('tempfile: a private file and directory each run, nothing under --check', async (t) => {
  t.timeout(2 * 60_000);
  const before = await host.sh('ls -A /tmp');
  const skipped = await run('tempfile', {}, { check: true });
  t.like(skipped, { changed: false, skipped: true });
  t.is(await host.sh('ls -A /tmp'), before, '--check created nothing');
  const f = await run('tempfile', {});
  t.true(f.changed);
  t.regex(String(f.path), /^\/tmp\/ansible\.[A-Za-z0-9]{8}$/);
  t.is(await host.sh(`stat -c '%F %a %U' ${f.path}`), 'regular empty file 600 root\n');
  const d = await run('tempfile', { state: 'directory', path: '/etc/n6', prefix: 'build-', suffix: '.d' });
  t.regex(String(d.path), /^\/etc\/n6\/build-[A-Za-z0-9]{8}\.d$/);
  t.is(await host.sh(`stat -c '%F %a' ${d.path}`), 'directory 700\n');
  t.not((await run('tempfile', {})).path, f.path, 'a new name each run');
  t.like(f, { uid: 0, gid: 0, owner: 'root', group: 'root', mode: '0600', size: 0, state: 'file' }, 'add_path_info as Ansible');
  t.like(d, { mode: '0700', state: 'directory' });
  const missing = await run('tempfile', { path: '/nonexistent/dir' });
  t.true(missing.failed);
  t.regex(String(missing.msg), /No such file or directory/);
});
