import test from 'ava';
import { readFileSync } from 'node:fs';
import { parsePackages } from '../../src/modules/package/parse.js';
import { pkgMgrHint, planPackages, probeCommand } from '../../src/modules/package/package.js';
import { getModule } from '../../src/modules/all.js';

const load = (name: string) => parsePackages(JSON.parse(readFileSync(new URL(`../../../src/modules/package/cases/${name}.json`, import.meta.url), 'utf8')));
const args = (a: Record<string, unknown>) => getModule('package')!.args.parse(a);

test('parses recorded dpkg-query / apt-cache policy output', (t) => {
  const s = load('installed');
  t.is(s.mgr, 'apt');
  t.deepEqual([...s.installed], [['ethtool', '1:6.1-1'], ['iputils-ping', '3:20221126-1+deb12u1']]);
  t.false(load('unknown').installed.has('nosuchpkg'));
  t.is(load('latest').candidates.get('ethtool'), '1:6.1-1');
  t.false(load('latest').candidates.has('nosuchpkg'));
  // removed with its config left: not installed
  t.false(load('removed').installed.has('ethtool'));
  t.is(load('no-manager').mgr, 'none');
});

test('installed packages plan nothing; missing ones install with a cache update only if apt lacks them', (t) => {
  t.deepEqual(planPackages(load('installed'), args({ name: ['ethtool', 'iputils-ping'] })), []);
  t.deepEqual(planPackages(load('latest'), args({ name: 'ethtool', state: 'latest' })), []);
  const [c] = planPackages(load('removed'), args({ name: ['ethtool', 'iputils-ping'] }));
  t.is(c.summary, 'install ethtool');
  t.regex(c.run[0], /apt-cache show "\$p" >\/dev\/null 2>&1 \|\| \{ apt-get update -q; break; \}/);
  // The apt module's command lines (kit/apt-plan.ts): its environment and dpkg options, names after --, marked manual.
  t.regex(c.run[1], /^DEBIAN_FRONTEND=noninteractive DEBIAN_PRIORITY=critical .* apt-get -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold install -- ethtool$/);
  t.is(c.run[2], 'apt-mark manual -- ethtool >/dev/null');
  t.is(c.before, 'ethtool: absent\n');
});

test('absent removes only what is installed', (t) => {
  const [c] = planPackages(load('installed'), args({ name: ['ethtool', 'nosuchpkg'], state: 'absent' }));
  t.regex(c.run.join('\n'), /^DEBIAN_FRONTEND=noninteractive [^\n]* apt-get -q -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold remove -- ethtool$/);
  t.is(c.after, 'ethtool: absent\n');
  t.deepEqual(planPackages(load('removed'), args({ name: 'ethtool', state: 'absent' })), []);
});

test('no package manager names what is expected; the hint skips detection', (t) => {
  t.throws(() => planPackages(load('no-manager'), args({ name: 'x' }), 'h1'), { message: /no package manager found on h1: expected apt-get/ });
  t.true(probeCommand(args({ name: 'x' }), 'dnf').startsWith('(if command -v dnf >/dev/null 2>&1; then m=dnf;'));
  t.regex(probeCommand(args({ name: 'x' })), /command -v apt-get/);
  t.false(getModule('package')!.args.safeParse({ name: '-rf' }).success);
});

test('use: the managers hostwire drives; the others of Ansible refused by name', (t) => {
  const parse = (use: string) => getModule('package')!.args.safeParse({ name: 'x', use });
  t.true(parse('auto').success && parse('apt').success && parse('dnf').success && parse('yum').success);
  const bad = parse('zypper');
  t.false(bad.success);
  t.regex(JSON.stringify(bad.error?.issues), /expected auto, apt, dnf or yum: 'zypper' is a package manager hostwire does not drive/);
  t.regex(JSON.stringify(parse('nosuch').error?.issues), /there is no package manager module 'nosuch'/);
  // use wins over the hostwire_pkg_mgr hint, and a named manager is checked on the host
  t.regex(probeCommand(args({ name: 'x', use: 'yum' }), 'apt'), /^\(if command -v yum >\/dev\/null 2>&1; then m=yum; else m=none; echo missing:yum; fi;/);
});

test("the manager: use, else the pkg_mgr fact as Ansible's package action reads it (ansible_facts.pkg_mgr), then hostwire_pkg_mgr", (t) => {
  t.is(pkgMgrHint(args({ name: 'x', use: 'apt' }), { ansible_facts: { pkg_mgr: 'dnf' } }), 'apt');
  t.is(pkgMgrHint(args({ name: 'x' }), { ansible_facts: { pkg_mgr: 'dnf' }, hostwire_pkg_mgr: 'apt' }), 'dnf');
  t.is(pkgMgrHint(args({ name: 'x' }), { ansible_pkg_mgr: 'dnf', hostwire_pkg_mgr: 'apt' }), 'dnf');
  t.is(pkgMgrHint(args({ name: 'x' }), { hostwire_pkg_mgr: 'yum' }), 'yum');
  t.regex(probeCommand(args({ name: 'x' }), pkgMgrHint(args({ name: 'x' }), { ansible_pkg_mgr: 'dnf' })), /^\(if command -v dnf /);
});
