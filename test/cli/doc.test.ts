// `hostwire doc`, run as a user runs it: the list, one module, a fallback module from library/, a bad name.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function setup(t: { teardown(f: () => void): void }): { cwd: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-doc-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'library'));
  writeFileSync(path.join(dir, 'library', 'my_mod.py'), "#!/usr/bin/python\nDOCUMENTATION = r'''\nmodule: my_mod\nshort_description: A local module\nattributes:\n  check_mode: {support: full}\n  diff_mode: {support: none}\n'''\nEXAMPLES = r'''\n- my_mod: {}\n'''\nfrom ansible.module_utils.basic import AnsibleModule\n");
  // A library module named like a native one: tasks naming it run the native module, so it is not offered.
  writeFileSync(path.join(dir, 'library', 'ping.py'), "#!/usr/bin/python\nDOCUMENTATION = r'''\nmodule: ping\n'''\n");
  // No ansible-core: an interpreter that does not exist; HOME away from the user's collections.
  const env = { PATH: process.env.PATH, HOME: dir, HOSTWIRE_ANSIBLE_PYTHON: path.join(dir, 'no-python'), XDG_CACHE_HOME: path.join(dir, 'cache') };
  return { cwd: dir, env };
}

const run = (words: string[], cwd: string, env: NodeJS.ProcessEnv) => new Promise<{ code: number; out: string; err: string }>((resolve) =>
  execFile(process.execPath, [CLI, 'doc', ...words], { cwd, env, timeout: 60_000 }, (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err })));

test('hostwire doc lists the native modules, the library/ modules, and says why ansible-core\'s are missing', async (t) => {
  const { cwd, env } = setup(t);
  const r = await run([], cwd, env);
  t.is(r.code, 0, r.err);
  t.regex(r.out, /^ {2}copy +Writes a file on the host/m);
  t.regex(r.out, /^ {2}sysctl +A kernel parameter/m);
  t.true(r.out.includes(`${path.join(cwd, 'library')} (Ansible fallback):\n  my_mod\n  (not listed, run natively or by the playbook loader: 1: ping)\n`), r.out.slice(-600));
  t.regex(r.out, /ansible-core's own modules \(Ansible fallback\): unavailable: ansible-core was not found on this controller \(tried .*no-python\)/);
});

test('hostwire doc copy prints its arguments with types and defaults, and the example', async (t) => {
  const { cwd, env } = setup(t);
  const r = await run(['copy'], cwd, env);
  t.is(r.code, 0, r.err);
  t.true(r.out.startsWith('> COPY\n'));
  t.regex(r.out, /^= dest\n {4}The file on the host\.\n {4}str; required$/m);
  t.regex(r.out, /^- force\n[\s\S]*?\n {4}bool; default: true$/m);
  t.true(r.out.includes('CHECK MODE: full    DIFF: full'));
  t.true(r.out.includes('  - copy:\n      src: 99-ovs.conf'));
});

test('a collection or ansible.builtin name of a native module shows the native module that runs', async (t) => {
  const { cwd, env } = setup(t);
  for (const [name, native] of [['community.general.modprobe', 'MODPROBE'], ['ansible.builtin.stat', 'STAT'], ['ansible.legacy.systemd_service', 'SYSTEMD_SERVICE'], ['ansible.posix.mount', 'MOUNT'], ['openvswitch.openvswitch.openvswitch_port', 'OPENVSWITCH_PORT']]) {
    const r = await run([name], cwd, env);
    t.is(r.code, 0, `${name}: ${r.err}`);
    t.true(r.out.startsWith(`> ${native}  (${name} runs natively as hostwire's ${native.toLowerCase()})\n`), `${name}: ${r.out.slice(0, 200)}`);
    t.regex(r.out, /^CHECK MODE: (full|partial|none) {4}DIFF: (full|partial|none)$/m, name);
    t.regex(r.out, /^EXAMPLE:$/m, name);
  }
});

test('hostwire doc NAME of a library/ module points to ansible-doc and prints its DOCUMENTATION', async (t) => {
  const { cwd, env } = setup(t);
  const r = await run(['my_mod'], cwd, env);
  t.is(r.code, 0, r.err);
  t.true(r.out.includes('(Ansible fallback: '));
  t.true(r.out.includes('ansible-doc ansible.legacy.my_mod') || r.out.includes('ansible-doc my_mod'), r.out);
  t.true(r.out.includes('short_description: A local module'));
  t.true(r.out.includes('CHECK MODE: full    DIFF: none'), r.out);
  t.true(r.out.includes('EXAMPLES:\n\n- my_mod: {}\n'), r.out);
});

test('an unknown module is a usage error (exit 5) naming it, without a stack trace', async (t) => {
  const { cwd, env } = setup(t);
  const r = await run(['no_such_module'], cwd, env);
  t.is(r.code, 5);
  t.is(r.out, '');
  t.regex(r.err, /^ERROR! doc: no module named 'no_such_module': not a hostwire module and not found where Ansible looks/);
  t.false(r.err.includes('    at '));
});
