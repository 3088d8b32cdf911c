// ansible.cfg as Ansible reads it: which file, the INI dialect, each setting's type, env over file,
// command line over both, and errors naming file:line with the expected form.
import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findConfigFile, loadConfig, parseIni } from '../../src/config/index.js';
import { mergeSettings } from '../../src/cli/config-merge.js';

function scratch(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'h10cfg-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const home = path.join(dir, 'home');
  const cwd = path.join(dir, 'project');
  mkdirSync(home);
  mkdirSync(cwd);
  const write = (rel: string, text: string) => {
    const p = path.join(dir, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  const systemFile = path.join(dir, 'etc', 'ansible.cfg');
  return { dir, home, cwd, write, systemFile, search: (env: NodeJS.ProcessEnv = {}) => ({ env, cwd, home, systemFile }) };
}

test('search order: ANSIBLE_CONFIG, ./ansible.cfg, ~/.ansible.cfg, system file; first found wins', (t) => {
  const s = scratch(t);
  t.is(findConfigFile(s.search()).file, undefined);
  s.write('etc/ansible.cfg', '[defaults]\n');
  t.is(findConfigFile(s.search()).file, s.systemFile);
  const home = s.write('home/.ansible.cfg', '[defaults]\n');
  t.is(findConfigFile(s.search()).file, home);
  const local = s.write('project/ansible.cfg', '[defaults]\n');
  t.is(findConfigFile(s.search()).file, local);
  const custom = s.write('custom/other.cfg', '[defaults]\n');
  t.is(findConfigFile(s.search({ ANSIBLE_CONFIG: custom })).file, custom);
  // A directory in ANSIBLE_CONFIG means its ansible.cfg; a missing one falls through to the next.
  const inDir = s.write('cfgdir/ansible.cfg', '[defaults]\n');
  t.is(findConfigFile(s.search({ ANSIBLE_CONFIG: path.dirname(inDir) })).file, inDir);
  t.is(findConfigFile(s.search({ ANSIBLE_CONFIG: path.join(s.dir, 'nope.cfg') })).file, local);
});

test('a world-writable working directory\'s ansible.cfg is ignored with a warning', (t) => {
  const s = scratch(t);
  s.write('project/ansible.cfg', '[defaults]\nforks = 3\n');
  const home = s.write('home/.ansible.cfg', '[defaults]\nforks = 7\n');
  chmodSync(s.cwd, 0o777);
  const found = findConfigFile(s.search());
  t.is(found.file, home);
  t.regex(found.warnings[0] ?? '', /world writable directory .*ignoring it as an ansible\.cfg source/);
  t.is(loadConfig(s.search()).forks, 7);
});

test('INI as configparser reads it: # and ; comments, inline ; comments, case-insensitive keys, continuation, % read raw', (t) => {
  const ini = parseIni([
    '# comment', '; another', '[defaults]', 'Inventory = hosts.ini ; where the hosts are',
    'remote_user: deploy', 'roles_path = a', '  b', 'x = 50%% # not a comment', '',
  ].join('\n'), 'ansible.cfg');
  const d = ini.get('defaults')!;
  t.is(d.get('inventory')!.value, 'hosts.ini');
  t.is(d.get('inventory')!.line, 4);
  t.is(d.get('remote_user')!.value, 'deploy');
  t.is(d.get('roles_path')!.value, 'a\nb');
  t.is(d.get('x')!.value, '50%% # not a comment');
  // ansible-config dump printed local_tmp = /tmp/%(x)s/c%d and /tmp/a%%b as written (no interpolation).
  t.is(parseIni('[defaults]\nx = /tmp/%(x)s/c%d\n', 'a.cfg').get('defaults')!.get('x')!.value, '/tmp/%(x)s/c%d');
});

test('INI errors name file:line and what was expected', (t) => {
  t.throws(() => parseIni('forks = 5\n', 'a.cfg'), { message: /^a\.cfg:1: .*outside any section; expected a \[section\] header/ });
  t.throws(() => parseIni('[defaults]\nforks\n', 'a.cfg'), { message: /^a\.cfg:2: 'forks' is not a setting; expected key = value/ });
  t.throws(() => parseIni('[defaults]\nforks=1\nFORKS=2\n', 'a.cfg'), { message: /^a\.cfg:3: 'forks' is set twice/ });
});

test('every setting read with its type; relative paths from the file\'s directory', (t) => {
  const s = scratch(t);
  const file = s.write('project/conf/ansible.cfg', [
    '[defaults]', 'inventory = inv/a.ini, /abs/b.ini', 'roles_path = roles:/usr/share/roles', 'remote_user = deploy',
    'private_key_file = keys/id', 'forks = 12', 'host_key_checking = False', 'timeout = 20',
    'vault_password_file = ~/.vault', 'gathering = smart',
    '[privilege_escalation]', 'become = yes', 'become_method = sudo', 'become_user = admin', 'become_ask_pass = true',
    '[hostwire]', 'host_key_checking = accept-new', 'lock_timeout = 30', '',
  ].join('\n'));
  const c = loadConfig(s.search({ ANSIBLE_CONFIG: file, HOME: s.home }));
  const base = path.dirname(file);
  t.is(c.file, file);
  t.deepEqual(c.inventory, [path.join(base, 'inv/a.ini'), '/abs/b.ini']);
  t.deepEqual(c.rolesPath, [path.join(base, 'roles'), '/usr/share/roles']);
  t.is(c.remoteUser, 'deploy');
  t.is(c.privateKeyFile, path.join(base, 'keys/id'));
  t.is(c.forks, 12);
  t.is(c.hostKeyChecking, false);
  t.is(c.timeout, 20);
  t.true(c.vaultPasswordFile!.endsWith('/.vault') && path.isAbsolute(c.vaultPasswordFile!));
  t.is(c.gathering, 'smart');
  t.is(c.become, true);
  t.is(c.becomeMethod, 'sudo');
  t.is(c.becomeUser, 'admin');
  t.is(c.becomeAskPass, true);
  t.is(c.hostKeyPolicy, 'accept-new');
  t.is(c.lockTimeout, 30);
});

test('ANSIBLE_* variables override the file; their relative paths are from the working directory', (t) => {
  const s = scratch(t);
  s.write('project/ansible.cfg', '[defaults]\nforks = 3\nremote_user = filed\ninventory = from-file.ini\n');
  const c = loadConfig(s.search({ ANSIBLE_FORKS: '9', ANSIBLE_REMOTE_USER: 'envuser', ANSIBLE_INVENTORY: 'env.ini', ANSIBLE_GATHERING: 'explicit', ANSIBLE_BECOME: 'no' }));
  t.is(c.forks, 9);
  t.is(c.remoteUser, 'envuser');
  t.deepEqual(c.inventory, [path.join(s.cwd, 'env.ini')]);
  t.is(c.gathering, 'explicit');
  t.is(c.become, false);
});

test('bad values: file:line, the setting and the expected form; env names the variable', (t) => {
  const s = scratch(t);
  const cases: [string, RegExp][] = [
    ['[defaults]\nforks = many\n', /ansible\.cfg:2: \[defaults\] forks is 'many'; expected a whole number >= 1/],
    ['[defaults]\n\nforks = 0\n', /ansible\.cfg:3: \[defaults\] forks is '0'; expected a whole number >= 1/],
    ['[defaults]\nhost_key_checking = maybe\n', /:2: \[defaults\] host_key_checking is 'maybe'; expected a boolean/],
    ['[defaults]\ngathering = sometimes\n', /:2: \[defaults\] gathering is 'sometimes'; expected one of implicit, explicit, smart/],
    ['[privilege_escalation]\nbecome_method = su\n', /:2: \[privilege_escalation\] become_method is 'su'; expected one of sudo/],
    ['[defaults]\ntimeout = -1\n', /:2: \[defaults\] timeout is '-1'; expected a whole number/],
    ['[hostwire]\nlock_timout = 3\n', /:2: \[hostwire\] has no setting 'lock_timout'; expected one of host_key_checking, lock_timeout/],
  ];
  for (const [text, re] of cases) {
    const file = s.write('project/ansible.cfg', text);
    const err = t.throws(() => loadConfig(s.search()));
    t.true(err!.message.startsWith(file), err!.message);
    t.regex(err!.message, re);
  }
  rmSync(path.join(s.cwd, 'ansible.cfg'));
  t.throws(() => loadConfig(s.search({ ANSIBLE_FORKS: 'x' })), { message: /environment variable ANSIBLE_FORKS is 'x'; expected a whole number/ });
  t.throws(() => loadConfig(s.search({ ANSIBLE_REMOTE_USER: 'a\u0007b' })), { message: /ANSIBLE_REMOTE_USER holds a control character/ });
  // Unknown [defaults] keys belong to Ansible: ignored, as Ansible ignores what it does not know.
  s.write('project/ansible.cfg', '[defaults]\nstdout_callback = yaml\n[ssh_connection]\npipelining = True\n');
  t.is(loadConfig(s.search()).forks, undefined);
});

test('command line over environment over file; hostwire\'s defaults when none says', (t) => {
  const s = scratch(t);
  s.write('project/ansible.cfg', '[defaults]\nforks = 4\ninventory = hosts.ini\nroles_path = r\nhost_key_checking = no\nvault_password_file = pw\n[privilege_escalation]\nbecome_ask_pass = yes\n');
  const cfg = loadConfig(s.search());
  const fromFile = mergeSettings({ inventory: [] }, cfg);
  t.is(fromFile.forks, 4);
  t.deepEqual(fromFile.inventory, [path.join(s.cwd, 'hosts.ini')]);
  t.deepEqual(fromFile.rolesPath, [path.join(s.cwd, 'r')]);
  t.is(fromFile.hostKeyChecking, 'off');
  t.deepEqual(fromFile.vaultPasswordFiles, [path.join(s.cwd, 'pw')]);
  t.true(fromFile.askBecomePass);
  const cli = mergeSettings({ inventory: ['cli.ini'], forks: '2', rolesPath: ['cliroles'], hostKeyChecking: 'strict', vaultPasswordFile: ['clipw'] }, cfg);
  t.is(cli.forks, 2);
  t.deepEqual(cli.inventory, ['cli.ini']);
  t.deepEqual(cli.rolesPath, ['cliroles', path.join(s.cwd, 'r')]);
  t.is(cli.hostKeyChecking, 'strict');
  t.deepEqual(cli.vaultPasswordFiles, ['clipw', path.join(s.cwd, 'pw')]);
  const none = mergeSettings({ inventory: [] }, loadConfig(scratch(t).search()));
  t.is(none.forks, 50);
  t.is(none.hostKeyChecking, undefined);
  t.deepEqual(none.inventory, []);
});
