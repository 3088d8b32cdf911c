import test from 'ava';
import { readFileSync } from 'node:fs';
import { editSysctlFile, fileValue, parseSysctl, procPath } from '../../src/modules/sysctl/parse.js';
import { planSysctl } from '../../src/modules/sysctl/sysctl.js';
import { getModule } from '../../src/modules/all.js';

const load = (name: string) => parseSysctl(JSON.parse(readFileSync(new URL(`../../../src/modules/sysctl/cases/${name}.json`, import.meta.url), 'utf8')));
const args = (a: Record<string, unknown>) => getModule('sysctl')!.args.parse(a);

test('parses runtime values (tabs normalised) and the file from recorded probes', (t) => {
  const noFile = load('no-file');
  t.is(noFile.runtime, '0');
  t.false(noFile.file.exists);
  const range = load('port-range');
  t.is(range.runtime, '32768 60999');
  t.is(fileValue(range.file.content!.toString(), 'net.ipv4.ip_local_port_range'), '32768 60999');
  t.is(load('missing-key').runtime, undefined);
});

test('sets runtime and file apart, only where they differ', (t) => {
  const c = planSysctl(load('no-file'), args({ name: 'net.ipv4.ip_forward', value: 1 }));
  t.deepEqual(c.map((x) => x.summary), ['set net.ipv4.ip_forward=1 at runtime', 'create directory /etc/sysctl.d', 'create /etc/sysctl.d/99-hostwire.conf']);
  t.deepEqual(c[0].run, ["printf '%s\\n' 1 > /proc/sys/net/ipv4/ip_forward"]);
  t.is(c[2].after, 'net.ipv4.ip_forward=1\n');
  // runtime already right, file differs: only the file
  const f = planSysctl(load('no-file'), args({ name: 'net.ipv4.ip_forward', value: '0' }));
  t.deepEqual(f.map((x) => x.summary), ['create directory /etc/sysctl.d', 'create /etc/sysctl.d/99-hostwire.conf']);
  // both right (spaces vs the kernel's tab): nothing
  t.deepEqual(planSysctl(load('port-range'), args({ name: 'net.ipv4.ip_local_port_range', value: '32768   60999', sysctl_file: '/tmp/hw-sysctl.conf' })), []);
  // reload: no leaves the runtime alone
  t.deepEqual(planSysctl(load('no-file'), args({ name: 'net.ipv4.ip_forward', value: 1, reload: false })).map((x) => x.summary).length, 2);
});

test('unknown keys fail naming the key; absent edits only the file', (t) => {
  t.throws(() => planSysctl(load('missing-key'), args({ name: 'net.ipv4.no_such_key', value: 1 }), 'h1'), { message: /net.ipv4.no_such_key does not exist on h1/ });
  const [w] = planSysctl(load('port-range'), args({ name: 'net.ipv4.ip_forward', state: 'absent', sysctl_file: '/tmp/hw-sysctl.conf' }));
  t.is(w.after, '# tuned\nnet.ipv4.ip_local_port_range = 32768 60999\n');
});

test('file edit: last assignment rewritten, duplicates dropped, comments kept; key path mapping', (t) => {
  t.is(editSysctlFile('# c\na.b = 1\nx=2\na.b=3\n', 'a.b', '4'), '# c\nx=2\na.b=4\n');
  t.is(editSysctlFile('a.b = 4\n', 'a.b', '4'), 'a.b = 4\n');
  t.is(editSysctlFile('', 'a.b', '4'), 'a.b=4\n');
  t.is(procPath('net.ipv4.conf.eth0/100.rp_filter'), '/proc/sys/net/ipv4/conf/eth0.100/rp_filter');
  t.true(args({ name: 'net.ipv4.ip_forward', value: true }).value === '1');
  t.false(getModule('sysctl')!.args.safeParse({ name: 'net.ipv4.ip_forward' }).success);
});

test('ignoreerrors: a key the kernel lacks goes to the file only; key/val are aliases', (t) => {
  const a = args({ key: 'net.ipv4.no_such_key', val: 1, ignoreerrors: 'yes' });
  t.like(a, { name: 'net.ipv4.no_such_key', value: '1', ignoreerrors: true });
  t.deepEqual(planSysctl(load('missing-key'), a).map((c) => c.summary), ['create directory /etc/sysctl.d', 'create /etc/sysctl.d/99-hostwire.conf']);
  // sysctl_set sets the runtime even with reload: no
  t.is(planSysctl(load('no-file'), args({ name: 'net.ipv4.ip_forward', value: 1, reload: false, sysctl_set: true }))[0].summary, 'set net.ipv4.ip_forward=1 at runtime');
});
