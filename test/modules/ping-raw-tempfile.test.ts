import test from 'ava';
import { getModule } from '../../src/modules/all.js';
import { rawCommandLine } from '../../src/modules/raw/raw.js';
import { mktempCommand } from '../../src/modules/tempfile/tempfile.js';

test('raw: the command line as written; executable runs it with -c, both quoted', (t) => {
  const args = getModule('raw')!.args;
  t.is(rawCommandLine(args.parse({ _raw_params: 'echo $HOME; ls' })), 'echo $HOME; ls');
  t.is(rawCommandLine(args.parse({ _raw_params: "echo 'a b'", executable: '/bin/ba sh' })), `'/bin/ba sh' -c 'echo '\\''a b'\\'''`);
  t.false(args.safeParse({ _raw_params: '' }).success);
  // creates=/chdir= are command's: Ansible's raw ignores them silently, hostwire names them.
  t.false(args.safeParse({ _raw_params: 'x', creates: '/a' }).success);
  t.true(getModule('raw')!.skipsInCheck);
  t.deepEqual(getModule('raw')!.checkSkipped!({}), { changed: false, skipped: true });
});

test('ping: data defaults to pong; crash fails as ping.py raises', async (t) => {
  const ping = getModule('ping')!;
  const ctx = { probe: async () => true } as never;
  t.deepEqual(await ping.run!(ping.args.parse({}), ctx), { changed: false, ping: 'pong' });
  t.deepEqual(await ping.run!(ping.args.parse({ data: 'crash' }), ctx), { changed: false, failed: true, msg: 'Exception: boom' });
});

test('tempfile: mktemp with every value one quoted word after --; names without / refused; skipped under --check', (t) => {
  const m = getModule('tempfile')!;
  t.is(mktempCommand(m.args.parse({})), 'mktemp -p "${TMPDIR:-/tmp}" -- ansible.XXXXXXXX');
  t.is(mktempCommand(m.args.parse({ state: 'directory', path: "/srv/a b'", prefix: '$(x)', suffix: '.d' })), `mktemp -d -p '/srv/a b'\\''' --suffix=.d -- '$(x)XXXXXXXX'`);
  t.false(m.args.safeParse({ prefix: '../x' }).success);
  t.false(m.args.safeParse({ state: 'link' }).success);
  t.true(m.skipsInCheck === true);
});
