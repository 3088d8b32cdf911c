import test from 'ava';
import { iptablesModule, planIptables, readIptables, type IptablesArgs } from '../../src/modules/iptables/iptables.js';
import { parseRules } from '../../src/modules/iptables/parse.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => iptablesModule.args.parse(a) as IptablesArgs;

test('parses iptables -S with quoted comments', (t) => {
  const r = parseRules(loadCase('iptables', 'list-chain').stdout, 'HW-TEST');
  t.is(r.length, 2);
  t.deepEqual(r[0], { index: 1, spec: ['-s', '10.0.0.0/8', '-p', 'tcp', '-m', 'tcp', '--dport', '22', '-m', 'comment', '--comment', 'hw: ssh in', '-j', 'ACCEPT'], comment: 'hw: ssh in' });
  t.is(loadCase('iptables', 'check-present').rc, 0);
  t.is(loadCase('iptables', 'check-absent').rc, 1);
});

test('an empty built-in chain of ip6tables -t nat lists only its policy: no rules', (t) => {
  const c = loadCase('iptables', 'list-nat-v6');
  t.is(c.rc, 0);
  t.deepEqual(parseRules(c.stdout, 'POSTROUTING'), []);
  t.deepEqual(parseRules(c.stdout + '\n-A POSTROUTING -s 2001:db8::/64 -j MASQUERADE', 'POSTROUTING').map((r) => r.spec), [['-s', '2001:db8::/64', '-j', 'MASQUERADE']]);
});

test('recorded probe: rule present (-C ok) -> no change; changed tagged rule replaced in place', (t) => {
  const c = loadCase('iptables', 'probe-tagged');
  const s = readIptables(c.stdout, 'HW-NEW');
  t.true(s.present);
  t.deepEqual(planIptables(s, args(c.args!)), []);
  const [ch] = planIptables({ ...s, present: false }, args({ ...c.args, rule: "-s 10.0.0.0/8 -p tcp --dport 82 -j ACCEPT" }));
  t.is(ch.run[0], `iptables -w -t filter -R HW-NEW ${s.rules.find((r) => r.comment === 'hw web')!.index} -s 10.0.0.0/8 -p tcp --dport 82 -j ACCEPT -m comment --comment 'hw web'`);
  t.deepEqual(planIptables(s, args({ ...c.args, state: 'absent' }))[0].run, [`iptables -w -t filter -D HW-NEW -s 10.0.0.0/8 -p tcp -m tcp --dport 81 -m comment --comment 'hw web' -j ACCEPT`]);
});

test('missing user chain is created; position inserts', (t) => {
  const s = readIptables(loadCase('iptables', 'probe-no-chain').stdout, 'HW-NONE');
  t.false(s.chainExists);
  t.deepEqual(planIptables(s, args({ chain: 'HW-NONE', rule: ['-j', 'ACCEPT'], position: 1 }))[0].run, ['iptables -w -t filter -N HW-NONE', 'iptables -w -t filter -I HW-NONE 1 -j ACCEPT']);
  t.throws(() => planIptables(s, args({ chain: 'INPUT', rule: '-j ACCEPT' })), { message: /has no chain INPUT/ });
  t.is(args({ chain: 'X', rule: 'x', ip_version: 6 }).ip_version, 6);
});
