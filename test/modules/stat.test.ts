// stat's arguments and the shell text of its read; its results are checked against Ansible's by the
// recorded cases (cases.test.ts runs src/modules/stat/cases/*.json).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { getModule } from '../../src/modules/all.js';
import type { PlanCase } from './plan-case.js';
import { statProbe } from '../../src/modules/stat/stat.js';

const stat = getModule('stat')!;

test('stat arguments: Ansible aliases and key=value booleans', (t) => {
  t.deepEqual(stat.args.parse({ dest: '/x', checksum: 'sha256', mime: 'no', attr: 'off', follow: 'yes' }), {
    path: '/x', follow: true, get_md5: false, get_checksum: true, get_mime: false, get_attributes: false, checksum_algorithm: 'sha256',
  });
  t.is(stat.args.parse({ name: '/y', get_checksum: 'false', 'mime-type': true }).get_checksum, false);
  const conflict = stat.args.safeParse({ path: '/a', dest: '/b' });
  t.false(conflict.success);
  t.regex(JSON.stringify(conflict.error?.issues), /'dest' is an alias of 'path'/);
  t.false(stat.args.safeParse({ path: '/a', checksum_algorithm: 'crc32' }).success);
  t.false(stat.args.safeParse({ path: '/a', get_mime: 'maybe' }).success);
  t.false(stat.args.safeParse({ path: '/a', bogus: 1 }).success);
});

test('stat: the path is one quoted shell word, after -- for every tool', (t) => {
  const cmd = stat.readsAhead!(stat.args.parse({ path: "/tmp/it's $(reboot) `x`" }))[0]!.command;
  t.true(cmd.includes(`f='/tmp/it'\\''s $(reboot) \`x\`';`), cmd);
  t.regex(cmd, /stat --printf '[^']*' -- "\$f"/);
  for (const tool of ['readlink -z', 'realpath -zm', 'file -b --mime-type --mime-encoding', 'lsattr -vd']) t.true(cmd.includes(`${tool} -- "$f"`), tool);
});

test("stat: a symlink's target that looks like a template comes back as the text it is", (t) => {
  const c = JSON.parse(readFileSync(new URL('../../../src/modules/stat/cases/dangling-hostile.json', import.meta.url), 'utf8')) as PlanCase;
  const read = statProbe(stat.args.parse(c.args)).parse({ stdout: c.stdout, rc: c.rc });
  t.is(read.kind === 'found' && read.stat.lnk_target, `/nowhere/{{ lookup("file","/etc/shadow") }}`);
});

test('stat: free text cannot forge a line; an unparsable read names the path', (t) => {
  const probe = statProbe(stat.args.parse({ path: '/p' }));
  t.throws(() => probe.parse({ stdout: 'user:root\n', rc: 0 }), { message: /expected a stat line of 14 fields for \/p/ });
  // The first of each key wins: the stat line comes first, base64 lines cannot hold a newline.
  const read = probe.parse({ stdout: 'stat:81a4|0|0|3|1|2|1|1.5|1.5|1.5|8|4096|0|0\nuser:root\ngroup:root\naccess:rw\nuser:evil\n', rc: 0 });
  t.is(read.kind === 'found' && read.stat.pw_name, 'root');
  t.is(read.kind === 'found' && read.stat.mode, '0644');
});
