// Ansible's aliases of `path`: file (dest, name), lineinfile (dest, destfile, name), ini_file (dest).
import test from 'ava';
import { fileModule } from '../../src/modules/file/file.js';
import { lineinfileModule } from '../../src/modules/lineinfile/lineinfile.js';
import { iniFileModule } from '../../src/modules/ini_file/ini_file.js';

const cases = [
  { mod: fileModule, aliases: ['dest', 'name'], extra: { state: 'touch' } },
  { mod: lineinfileModule, aliases: ['dest', 'destfile', 'name'], extra: { line: 'x=1' } },
  { mod: iniFileModule, aliases: ['dest'], extra: { section: 's', option: 'o', value: 'v' } },
];

test('each alias of path is read as path', (t) => {
  for (const { mod, aliases, extra } of cases) {
    for (const alias of aliases) {
      const r = mod.args.safeParse({ [alias]: '/etc/h10.conf', ...extra });
      t.true(r.success, `${mod.name} ${alias}: ${r.success ? '' : r.error.message}`);
      if (r.success) t.is((r.data as { path: string }).path, '/etc/h10.conf');
    }
  }
});

test('path and an alias with different values are refused naming the alias; the same value is fine', (t) => {
  for (const { mod, aliases, extra } of cases) {
    const bad = mod.args.safeParse({ path: '/a', [aliases[0]!]: '/b', ...extra });
    t.false(bad.success);
    if (!bad.success) {
      t.deepEqual(bad.error.issues[0]!.path, [aliases[0]]);
      t.regex(bad.error.issues[0]!.message, /alias of 'path' and both are set to different values/);
    }
    t.true(mod.args.safeParse({ path: '/a', [aliases[0]!]: '/a', ...extra }).success);
  }
});

test('an unknown argument is still refused (the alias map keeps the strict schema)', (t) => {
  t.false(fileModule.args.safeParse({ dest: '/a', destination: '/b' }).success);
  t.false(lineinfileModule.args.safeParse({ line: 'x' }).success, 'no path nor alias: path is required');
});
