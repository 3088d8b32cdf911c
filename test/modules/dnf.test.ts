// dnf's pure parts: the transaction table dnf printed on a lab host (recorded fragments,
// src/modules/dnf/cases/out-*.json) read into the module's results; rpm's version order; the module's
// spec parsing (_packagename_dict); the arguments Ansible takes and the ones refused.
import test from 'ava';
import { loadCase } from './net-cases.js';
import { parseDnfOutput } from '../../src/modules/kit/dnf-output.js';
import { packageNameDict, splitArch } from '../../src/modules/kit/dnf-plan.js';
import { compareEvr, rpmvercmp } from '../../src/modules/kit/rpm-version.js';
import { getModule } from '../../src/modules/all.js';
import type { RpmPackage } from '../../src/modules/kit/dnf-read.js';

const out = (name: string, before: RpmPackage[] = []) => {
  const c = loadCase('dnf', name);
  return parseDnfOutput(c.stdout, c.rc, before);
};

const installedBefore = (): RpmPackage[] =>
  loadCase('dnf', 'out-rpm-before').stdout.trim().split('\n').map((l) => {
    const [name, epoch, version, release, arch] = l.split('\t');
    return { name, epoch, version, release, arch };
  });

test('a real install: every table section (dependencies, weak dependencies) is installed', (t) => {
  t.deepEqual(out('out-install'), {
    installed: ['hwr-a-1.0-1.noarch', 'hwr-b-1.0-1.noarch', 'hwr-c-1.0-1.noarch', 'hwr-dep-1.0-1.noarch', 'hwr-weak-1.0-1.noarch'],
    removed: [], nothing: false, noMatch: [], failures: [],
  });
});

test('--assumeno upgrade: the new version installed, the old one (from rpm -qa before) removed; rc 1 is not a failure', (t) => {
  t.deepEqual(out('out-upgrade-check', installedBefore()), { installed: ['hwr-a-2.0-1.noarch'], removed: ['hwr-a-1.0-1.noarch'], nothing: false, noMatch: [], failures: [] });
});

test('unknown specs are named; nothing else is an error', (t) => {
  t.deepEqual(out('out-no-match'), { installed: [], removed: [], nothing: false, noMatch: ['hwr-nope', 'hwr-zip'], failures: ['No package hwr-nope available.', 'No package hwr-zip available.'] });
});

test('a spec hidden by excludes fails with dnf\'s reason after the spec, as the module reports it', (t) => {
  t.deepEqual(out('out-excluded').failures, ['hwr-b All matches were filtered out by exclude filtering for argument: hwr-b']);
});

test('a removal takes its dependent packages; Nothing to do', (t) => {
  t.deepEqual(out('out-remove-dependent').removed, ['hwr-dep-1.0-1.noarch', 'hwr-b-1.0-1.noarch']);
  t.like(out('out-nothing'), { nothing: true, installed: [], removed: [], error: undefined });
});

test("a depsolve problem is dnf's error text after 'Error: ', its hint to the CLI user left out", (t) => {
  const o = out('out-conflict');
  t.true(o.depsolve);
  t.is(o.error, '\n Problem: cannot install both hwr-a-2.0-1.noarch and hwr-a-1.0-1.noarch\n  - conflicting requests');
});

test('a wrapped row (a long name on its own line) is read whole', (t) => {
  const table = 'Installing:\n a-package-name-longer-than-its-column-is-wide\n                    x86_64        1:2.3-4.el9        appstream        12 k\nTransaction Summary\n';
  t.deepEqual(parseDnfOutput(table, 1, []).installed, ['a-package-name-longer-than-its-column-is-wide-1:2.3-4.el9.x86_64']);
});

test("rpmvercmp: rpm's order (digits by value, letters below digits, ~ before everything, ^ after the end)", (t) => {
  const cases: [string, string, number][] = [
    ['1.0', '1.0', 0], ['1.0', '1.1', -1], ['1.10', '1.9', 1], ['1.0a', '1.0', 1], ['1.a', '1.1', -1], ['001', '1', 0],
    ['1.0~rc1', '1.0', -1], ['1.0~rc1', '1.0~rc2', -1], ['1.0^git1', '1.0', 1], ['1.0^git1', '1.0.1', -1], ['1_0', '1.0', 0], ['2', '10', -1],
  ];
  for (const [a, b, want] of cases) t.is(rpmvercmp(a, b), want, `${a} vs ${b}`);
  t.is(compareEvr({ epoch: '1', version: '1.0', release: '1' }, { epoch: '0', version: '9.9', release: '9' }), 1, 'the epoch first');
  t.is(compareEvr({ epoch: '0', version: '2.0', release: '1' }, { epoch: '', version: '2.0', release: '2' }), -1, 'then the release');
});

test("ansible's _packagename_dict and _split_package_arch", (t) => {
  t.deepEqual(packageNameDict('hwr-a-1.0-1'), { name: 'hwr-a', epoch: '0', version: '1.0', release: '1' });
  t.deepEqual(packageNameDict('bash-2:5.1-6.el9.x86_64'), { name: 'bash', epoch: '2', version: '5.1', release: '6.el9' });
  t.deepEqual(packageNameDict('3:kernel-5.14-1.rpm'), { name: 'kernel', epoch: '3', version: '5.14', release: '1' });
  t.is(packageNameDict('hwr-a-1.0'), undefined, "name-version alone: the module's regex takes 'a' for the version");
  t.is(packageNameDict('openvswitch'), undefined);
  t.deepEqual(splitArch('glibc.i686'), { name: 'glibc', arch: 'i686' });
  t.deepEqual(splitArch('python3.11'), { name: 'python3.11' });
});

test("dnf's arguments: Ansible's names and aliases, comma lists; groups, files, list and a lone '*' refused by name", (t) => {
  const args = getModule('dnf')!.args;
  t.like(args.parse({ pkg: 'a, b', 'expire-cache': 'yes', enablerepo: 'x,y' }), { name: ['a', 'b'], update_cache: true, enablerepo: ['x', 'y'] });
  const refused = (a: Record<string, unknown>) => JSON.stringify(args.safeParse(a).error?.issues ?? []);
  t.regex(refused({ name: '@core' }), /groups and modules/);
  t.regex(refused({ name: '/tmp/x.rpm' }), /rpm files, URLs and file paths are not built/);
  t.regex(refused({ name: ['a b'] }), /space separated string of packages/);
  t.regex(refused({ name: '*' }), /name '\*' is built only alone with state=latest/);
  t.regex(refused({ list: 'installed' }), /list \(use package_facts\) is not built/);
  t.regex(refused({ name: 'a', autoremove: true, state: 'present' }), /Autoremove should be used alone or with state=absent/);
  t.regex(refused({ name: "a;touch$(x)" }), /expected a package spec/);
  t.true(args.safeParse({ name: 'hwr-a >= 1.0' }).success);
  t.true(args.safeParse({ name: '*', state: 'latest' }).success);
  const yum = getModule('yum')!.args;
  t.regex(JSON.stringify(yum.safeParse({ name: 'a', use: 'dnf', use_backend: 'dnf' }).error?.issues), /mutually exclusive: \('use', 'use_backend'\)/);
});

test('yum picks its backend as its action plugin: use/use_backend, else the pkg_mgr fact (another manager fails as there)', async (t) => {
  const yum = getModule('yum')!;
  const ctx = (vars: Record<string, unknown>) => ({ vars, host: 'h', check: true, probe: async () => { throw new Error('no read expected'); } }) as never;
  const r = await yum.run!(yum.args.parse({ name: 'a', use_backend: 'yum' }), ctx({}));
  t.like(r, { failed: true, msg: "the yum3 backend (yum's Python 2 API) is not built: on a dnf host use_backend: dnf" });
  const apt = await yum.run!(yum.args.parse({ name: 'a' }), ctx({ ansible_facts: { pkg_mgr: 'apt' } }));
  t.like(apt, { failed: true });
  t.regex((apt.msg as string[])[0], /^Could not detect which major revision of yum is in use/);
});
