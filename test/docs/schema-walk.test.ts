// The module reference reads each argument's type, default, choices and aliases from the real schemas.
import test from 'ava';
import { z } from 'zod';
import { getModule } from '../../src/modules/all.js';
import { describeArgs, type ArgInfo } from '../../src/docs/schema-walk.js';
import { withAliases } from '../../src/modules/kit/ansible-args.js';

const argsOf = (name: string) => new Map(describeArgs(getModule(name)!.args).map((a) => [a.name, a] as [string, ArgInfo]));

test('copy: through refine and the shared file attributes', (t) => {
  const a = argsOf('copy');
  t.deepEqual([...a.keys()], ['dest', 'content', 'src', 'mode', 'owner', 'group', 'backup', 'force', 'validate', 'remote_src', 'directory_mode']);
  t.deepEqual(a.get('dest'), { name: 'dest', type: 'str', required: true, aliases: [] });
  t.is(a.get('content')!.required, false);
  t.is(a.get('force')!.type, 'bool');
  t.is(a.get('force')!.default, true);
  t.is(a.get('mode')!.type, 'str or int');
  t.is(a.get('validate')!.type, 'str');
});

test('sysctl: enum choices, defaults, a union transformed to text', (t) => {
  const a = argsOf('sysctl');
  t.deepEqual(a.get('state'), { name: 'state', type: 'str', required: false, default: 'present', choices: ['present', 'absent'], aliases: [] });
  t.is(a.get('sysctl_file')!.default, '/etc/sysctl.d/99-hostwire.conf');
  t.is(a.get('value')!.type, 'str or float or bool');
  t.false(a.get('value')!.required);
  t.true(a.get('name')!.required);
  t.is(a.get('reload')!.default, true);
});

test('stat: aliases declared by withAliases, ansibleBool seen as bool, checksum choices', (t) => {
  const a = argsOf('stat');
  t.deepEqual(a.get('path')!.aliases, ['dest', 'name']);
  t.deepEqual(a.get('get_mime')!.aliases, ['mime', 'mime_type', 'mime-type']);
  t.is(a.get('follow')!.type, 'bool');
  t.is(a.get('follow')!.default, false);
  t.true(a.get('checksum_algorithm')!.choices!.includes('sha256'));
  t.is(a.get('checksum_algorithm')!.default, 'sha1');
});

test('path aliases (file), and a union of shapes requires only what every shape requires', (t) => {
  t.deepEqual(argsOf('file').get('path')!.aliases, ['dest', 'name']);
  const u = describeArgs(withAliases(z.union([z.object({ a: z.string(), b: z.number().int() }), z.object({ a: z.string(), c: z.array(z.string()).optional() })]), { a: ['x'] }));
  t.deepEqual(u.map((x) => [x.name, x.type, x.required, x.aliases]), [['a', 'str', true, ['x']], ['b', 'int', false, []], ['c', 'list of str', false, []]]);
});
