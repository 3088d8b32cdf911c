// Ansible's arguments on the modules hostwire ships, on a real lab host (issue 16): each converges,
// converges again with changed=0, and --check reports a drift without touching the host.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convergeCycle, labHost, moduleRunner, type LabHost, type ModuleRunner } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
let host: LabHost;

test.before(async () => {
  host = await labHost(LAB);
  await host.sh('mkdir -p /srv/ar');
});

test.after.always(async () => {
  await host?.close();
});

const run: ModuleRunner = (name, args, o) => moduleRunner(host)(name, args, o);
const sh = (cmd: string) => host.sh(cmd);
const cycle = (t: ExecutionContext, name: string, args: Record<string, unknown>, drift: string, read: string) => convergeCycle(t, host, run, name, args, drift, read);

/** Each test's own bound below ava's timeout, so a hung host fails the test instead of the run. */
const within = <T>(ms: number, p: Promise<T>): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

test.serial('sysctl: ignoreerrors writes an unknown key to the file only; sysctl_set with reload: no', (t) =>
  within(60_000, (async () => {
    const file = '/srv/ar/sysctl-ignore.conf';
    await t.throwsAsync(run('sysctl', { key: 'net.ipv4.no_such_key', val: 1, sysctl_file: file }), { message: /does not exist/ });
    await cycle(t, 'sysctl', { key: 'net.ipv4.no_such_key', val: 1, ignoreerrors: true, sysctl_file: file }, `sed -i 's/=1/=2/' ${file}`, `cat ${file}`);
    t.is(await sh(`cat ${file}`), 'net.ipv4.no_such_key=1\n');
    const set = { name: 'net.ipv4.ip_forward', value: 1, reload: false, sysctl_set: true, sysctl_file: '/srv/ar/sysctl-set.conf' };
    await cycle(t, 'sysctl', set, 'echo 0 > /proc/sys/net/ipv4/ip_forward', 'cat /proc/sys/net/ipv4/ip_forward /srv/ar/sysctl-set.conf');
  })()));

test.serial('package: use names the manager; one the host lacks or hostwire does not drive is refused', (t) =>
  within(120_000, (async () => {
    const status = "dpkg-query -W -f '${Status}' ethtool 2>/dev/null || true";
    const checked = await run('package', { name: 'ethtool', state: 'absent', use: 'apt' }, { check: true });
    t.true(checked.changed);
    t.regex(await sh(status), /install ok installed/, 'check mode removed nothing');
    t.true((await run('package', { name: 'ethtool', state: 'absent', use: 'apt' })).changed);
    t.false((await run('package', { name: 'ethtool', state: 'absent', use: 'apt' })).changed);
    t.regex(await sh(status), /not-installed|config-files/);
    await t.throwsAsync(run('package', { name: 'ethtool', use: 'dnf' }), { message: /the package manager asked for \(use: dnf\) is not on .+: dnf not found/ });
    await t.throwsAsync(run('package', { name: 'ethtool', use: 'zypper' }), { message: /use.*expected auto, apt, dnf or yum: 'zypper' is a package manager hostwire does not drive/s });
  })()));

test.serial("iptables: Ansible's arguments build the rule Ansible builds; policy, flush and chain_management converge", (t) =>
  within(120_000, (async () => {
    const ssh = { chain: 'INPUT', protocol: 'tcp', destination_port: 22, ctstate: ['NEW'], jump: 'ACCEPT', comment: 'ar ssh' };
    await cycle(t, 'iptables', ssh, "iptables -D INPUT -p tcp --dport 22 -m conntrack --ctstate NEW -m comment --comment 'ar ssh' -j ACCEPT", 'iptables -S INPUT');
    t.regex(await sh('iptables -S INPUT'), /^-A INPUT -p tcp -m tcp --dport 22 -m conntrack --ctstate NEW -m comment --comment "ar ssh" -j ACCEPT$/m);
    const nat = { table: 'nat', chain: 'POSTROUTING', source: '10.244.0.0/16', destination: '!10.244.0.0/16', out_interface: 'eth0', jump: 'MASQUERADE' };
    await cycle(t, 'iptables', nat, 'iptables -t nat -F POSTROUTING', 'iptables -t nat -S POSTROUTING');
    const first = { chain: 'INPUT', action: 'insert', rule_num: 1, in_interface: 'lo', jump: 'ACCEPT' };
    await cycle(t, 'iptables', first, 'iptables -D INPUT -i lo -j ACCEPT', 'iptables -S INPUT');
    t.regex(await sh('iptables -S INPUT'), /^-P INPUT ACCEPT\n-A INPUT -i lo -j ACCEPT\n/, 'inserted at the top');
    await cycle(t, 'iptables', { chain: 'FORWARD', policy: 'DROP' }, 'iptables -P FORWARD ACCEPT', 'iptables -S FORWARD');
    // a user chain: refused without chain_management, created with it; the rule is then found
    const user = { chain: 'AR-USER', protocol: 'udp', jump: 'RETURN' };
    await t.throwsAsync(run('iptables', user), { message: /has no chain AR-USER \(set chain_management: yes to create it\)/ });
    await cycle(t, 'iptables', { ...user, chain_management: true }, 'iptables -F AR-USER', 'iptables -S AR-USER');
    // flush: changed while the chain holds rules, then converged
    const flush = { chain: 'AR-USER', flush: true };
    t.true((await run('iptables', flush, { check: true })).changed);
    t.regex(await sh('iptables -S AR-USER'), /-A AR-USER -p udp -j RETURN/, 'check mode flushed nothing');
    t.true((await run('iptables', flush)).changed);
    t.false((await run('iptables', flush)).changed);
    t.is(await sh('iptables -S AR-USER'), '-N AR-USER\n');
    await cycle(t, 'iptables', { chain: 'AR-USER', chain_management: true, state: 'absent' }, 'iptables -N AR-USER', 'iptables -S AR-USER 2>&1 || true');
  })()));

test.serial('symbolic modes: computed on the host against the current mode (or the creation mode less the umask)', (t) =>
  within(60_000, (async () => {
    const mode = (p: string) => sh(`stat -c %a ${p}`).then((s) => s.trim());
    // What ansible -m file gave on a lab host for new paths (umask 0022): the same here.
    for (const [m, state, want] of [['u=rwx,g=rx,o=', 'directory', '750'], ['=r', 'touch', '444'], ['a+X', 'directory', '755'], ['a+X', 'touch', '644']]) {
      const path = `/srv/ar/sym-${state}-${want}`;
      t.true((await run('file', { path, state, mode: m })).changed);
      t.is(await mode(path), want, `${m} on a new ${state}`);
      t.false((await run('file', { path, state, mode: m })).changed, `${m}: converged`);
    }
    await sh('mkdir -p /srv/ar/symdir && chmod 0777 /srv/ar/symdir');
    await cycle(t, 'file', { path: '/srv/ar/symdir', state: 'directory', mode: 'u=rwx,g=rx,o=' }, 'chmod 0700 /srv/ar/symdir', 'stat -c %a /srv/ar/symdir');
    t.is(await mode('/srv/ar/symdir'), '750');
    // relative clauses keep what they do not name: g-w,o-rwx on 0666 -> 0640
    const copy = { dest: '/srv/ar/sym.conf', content: 'x=1\n', mode: 'g-w,o-rwx' };
    await sh("printf 'x=1\\n' > /srv/ar/sym.conf && chmod 0666 /srv/ar/sym.conf");
    const checked = await run('copy', copy, { check: true, diff: true });
    t.deepEqual(checked.diff?.map((d) => [d.before, d.after]), [['mode: 0666\n', 'mode: 0640\n']]);
    t.is(await mode('/srv/ar/sym.conf'), '666', 'check mode changed nothing');
    t.true((await run('copy', copy)).changed);
    t.is(await mode('/srv/ar/sym.conf'), '640');
    t.false((await run('copy', copy)).changed);
    // a new file written with a symbolic mode starts from 0644
    t.true((await run('copy', { dest: '/srv/ar/sym-new.conf', content: 'y\n', mode: 'u+x,o=' })).changed);
    t.is(await mode('/srv/ar/sym-new.conf'), '740');
    await t.throwsAsync(run('file', { path: '/srv/ar/symdir', state: 'directory', mode: 'u=rwz' }), { message: /mode must be in octal or symbolic form \(bad symbolic permission for mode: u=rwz\)/ });
  })()));

test.serial('copy/template validate: checked on the host before dest is replaced; backup as Ansible names it', (t) =>
  within(90_000, (async () => {
    const dest = '/srv/ar/valid.conf';
    const noTemps = async () => t.is(await sh('ls -A /srv/ar | grep -c hostwire- || true'), '0\n', 'no temp file left behind');
    const ok = { dest, content: 'key=1\n', validate: 'grep -q ^key= %s', mode: '0640' };
    await cycle(t, 'copy', ok, `printf 'key=2\\n' > ${dest}`, `cat ${dest}`);
    // a failing validate leaves dest as it was
    const bad = { dest, content: 'garbage\n', validate: "sh -c 'grep -q ^key= \"$1\" || { echo no key in \"$1\" >&2; exit 3; }' check %s" };
    await t.throwsAsync(run('copy', bad), { message: /failed to validate the new \/srv\/ar\/valid\.conf \(exit status 3\)/ });
    t.is(await sh(`cat ${dest}`), 'key=1\n', 'dest untouched');
    await noTemps();
    // the value never reaches a shell: a ; in it is a word handed to grep
    await t.throwsAsync(run('copy', { ...bad, validate: 'grep -q key; touch /srv/ar/pwned %s' }), { message: /failed to validate/ });
    t.is(await sh('test -e /srv/ar/pwned && echo yes || echo no'), 'no\n');
    // check mode: reported, not validated, not written
    t.true((await run('copy', { ...ok, content: 'key=3\n' }, { check: true })).changed);
    t.is(await sh(`cat ${dest}`), 'key=1\n');
    // backup: <dest>.<pid>.<YYYY-MM-DD@HH:MM:SS>~ holds the old content and is returned
    const r = await run('copy', { ...ok, content: 'key=4\n', backup: true });
    t.regex(String(r.backup_file), /^\/srv\/ar\/valid\.conf\.\d+\.\d{4}-\d\d-\d\d@\d\d:\d\d:\d\d~$/);
    t.is(await sh(`cat '${String(r.backup_file)}'`), 'key=1\n');
    t.is(await sh(`stat -c %a '${String(r.backup_file)}'`), '640\n', 'a preserving copy');
    const again = await run('copy', { ...ok, content: 'key=4\n', backup: true });
    t.false(again.changed);
    t.is(again.backup_file, undefined);
    // template: the same, on the rendered text
    const role = mkdtempSync(join(tmpdir(), 'hw-ar-role-'));
    t.teardown(() => rmSync(role, { recursive: true, force: true }));
    mkdirSync(join(role, 'templates'));
    writeFileSync(join(role, 'templates', 'v.j2'), 'key={{ v }}\n');
    const tpl = (v: string) => moduleRunner(host, { baseDir: role, vars: { v } });
    const args = { src: 'v.j2', dest, validate: 'grep -q ^key=[0-9] %s', backup: true };
    const tr = await tpl('5')('template', args);
    t.true(tr.changed);
    t.is(await sh(`cat ${dest} '${String(tr.backup_file)}'`), 'key=5\nkey=4\n');
    t.false((await tpl('5')('template', args)).changed);
    await t.throwsAsync(tpl('x')('template', args), { message: /failed to validate/ });
    t.is(await sh(`cat ${dest}`), 'key=5\n');
    await noTemps();
  })()));

test.serial('file recurse: mode/owner/group on the whole tree, only what differs; links not followed', (t) =>
  within(60_000, (async () => {
    const root = '/srv/ar/tree';
    await sh(`mkdir -p ${root}/a/b && printf x > ${root}/a/f && printf y > '${root}/a/b/odd name;$(id)' && ln -s /etc/hostname ${root}/a/link && chmod -R 0777 ${root} && chmod 0666 ${root}/a/f '${root}/a/b/odd name;$(id)' && chmod 0644 /etc/hostname`);
    const list = `find ${root} -printf '%m %u %y %p\\n' | sort -k4`;
    const args = { path: root, recurse: true, mode: 'u=rwX,g=rX,o=', owner: 'nobody' };
    // (a file with an execute bit would keep x under X, as Ansible's does: the drift leaves x off)
    await cycle(t, 'file', args, `chmod 0606 ${root}/a/f && chown root ${root}/a/b`, list);
    const after = await sh(list);
    t.regex(after, new RegExp(`^750 nobody d ${root}$`, 'm'));
    t.regex(after, new RegExp(`^750 nobody d ${root}/a/b$`, 'm'), 'X: directories searchable');
    t.regex(after, new RegExp(`^640 nobody f ${root}/a/f$`, 'm'), 'X: plain files not executable');
    t.regex(after, /^640 nobody f .*\/odd name;\$\(id\)$/m, 'an odd name is data');
    t.regex(after, new RegExp(`^777 nobody l ${root}/a/link$`, 'm'), 'the link itself is chowned');
    t.is(await sh('stat -c "%a %U" /etc/hostname'), '644 root\n', 'the link target is left alone');
  })()));
