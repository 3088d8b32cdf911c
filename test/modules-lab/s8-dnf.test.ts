// dnf and yum on a real lab host: Debian 12 with Debian's dnf 4.14, rpm and createrepo-c; the test
// builds tiny noarch rpms and two local repositories on the host (fixtures/dnf/local-repo.sh). Through
// the shared play cycle: --check predicts with dnf --assumeno and leaves the rpm database as it was,
// a run converges, the second run reports changed=0 (the rpm read settles it: no dnf start). The
// results are those ansible -m dnf (ansible-core 2.14) gave for the same tasks on a twin host.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { convergePlay, labModuleTest } from '../helpers/lab-converge.js';
import type { LabHost } from '../helpers/lab-host.js';
import type { LabPlay } from '../helpers/lab-play.js';
import { testLabName } from '../helpers/lab-name.js';

const lab = labModuleTest(testLabName(import.meta.url), { packages: ['dnf', 'rpm', 'createrepo-c'] });
const repoScript = readFileSync(fileURLToPath(new URL('../../../test/modules-lab/fixtures/dnf/local-repo.sh', import.meta.url)), 'utf8');
let ready: Promise<{ host: LabHost; play: LabPlay }> | undefined;
const up = () => (ready ??= lab.up().then(async (u) => (await u.host.sh(repoScript), u)));

const CHECK_MSG = 'Check mode: No changes made, but would have if not in check mode';
const rpmList = async (host: LabHost) => host.sh("rpm -qa --qf '%{NAME}-%{VERSION}\\n' 'hwr-*' | sort");

const INSTALL = `
- hosts: all
  gather_facts: false
  tasks:
    - { name: pinned and deps, ansible.builtin.dnf: { name: [hwr-a-1.0, hwr-b] } }
    - { name: no weak deps, dnf: { name: hwr-c, install_weak_deps: false } }
    # The task's environment reaches dnf: DNF_VAR_hwextra fills $hwextra in the hwextra repo's baseurl.
    - name: yum extra repo
      ansible.builtin.yum: { name: hwr-x, enablerepo: hwextra, use_backend: dnf }
      environment: { DNF_VAR_hwextra: hwextra }
    - { name: package by fact, package: { name: hwr-weak }, vars: { ansible_pkg_mgr: dnf } }
`;

test.serial('dnf installs a pinned version, dependencies, no weak deps, from an enabled repo; --check predicts; again changed=0', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await up();
  const { checked, first, again } = await convergePlay(t, play, 'install', INSTALL, { state: () => rpmList(host) });
  t.deepEqual(checked!.result('pinned and deps'), { outcome: 'changed', changed: true, failed: false, msg: CHECK_MSG, rc: 0, results: ['Installed: hwr-a-1.0-1.noarch', 'Installed: hwr-b-1.0-1.noarch', 'Installed: hwr-dep-1.0-1.noarch'] });
  t.deepEqual(first.result('no weak deps').results, ['Installed: hwr-c-1.0-1.noarch']);
  t.like(first.result('yum extra repo'), { outcome: 'changed', msg: '', rc: 0, results: ['Installed: hwr-x-1.0-1.noarch'] });
  t.like(again.result('pinned and deps'), { outcome: 'ok', msg: 'Nothing to do', rc: 0, results: [] });
  // package on a host whose pkg_mgr is dnf runs the dnf module, as Ansible's package action does: its result.
  t.like(checked!.result('package by fact'), { outcome: 'changed', msg: CHECK_MSG, results: ['Installed: hwr-weak-1.0-1.noarch'] });
  t.like(again.result('package by fact'), { outcome: 'ok', msg: 'Nothing to do' });
  t.is(await rpmList(host), 'hwr-a-1.0\nhwr-b-1.0\nhwr-c-1.0\nhwr-dep-1.0\nhwr-weak-1.0\nhwr-x-1.0\n', 'hwr-weak only as asked by name (install_weak_deps: false for hwr-c)');
});

test.serial('dnf latest upgrades (the old version in results); an unknown package fails and installs nothing', async (t) => {
  t.timeout(3 * 60_000);
  const { host, play } = await up();
  const yaml = '- hosts: all\n  gather_facts: false\n  tasks:\n    - { name: latest, dnf: { name: hwr-a, state: latest } }\n';
  const { checked, again } = await convergePlay(t, play, 'latest', yaml, { state: () => rpmList(host) });
  t.deepEqual(checked!.result('latest').results, ['Installed: hwr-a-2.0-1.noarch', 'Removed: hwr-a-1.0-1.noarch']);
  t.like(again.result('latest'), { outcome: 'ok', msg: 'Nothing to do' });
  const before = await rpmList(host);
  const bad = await play('unknown', '- hosts: all\n  gather_facts: false\n  tasks:\n    - { name: nope, dnf: { name: [hwr-a-1.0-1, hwr-nope] }, ignore_errors: true }\n');
  t.like(bad.result('nope'), { outcome: 'failed', msg: 'Failed to install some of the specified packages', failures: ['No package hwr-nope available.'], rc: 1, results: [] });
  t.is(await rpmList(host), before, 'nothing installed');
});

const REMOVE = `
- hosts: all
  gather_facts: false
  tasks:
    - { name: b gone, dnf: { name: hwr-b, state: absent } }
    - { name: autoremove, dnf: { autoremove: true } }
    - { name: wildcard gone, dnf: { name: 'hwr-[cx]*', state: removed } }
`;

test.serial('dnf absent leaves the dependency, autoremove takes it, a wildcard removes; again changed=0', async (t) => {
  t.timeout(3 * 60_000);
  const { host, play } = await up();
  const { checked, first, again } = await convergePlay(t, play, 'remove', REMOVE, { state: () => rpmList(host) });
  t.deepEqual(checked!.result('b gone').results, ['Removed: hwr-b-1.0-1.noarch']);
  t.deepEqual(first.result('autoremove').results, ['Removed: hwr-dep-1.0-1.noarch']);
  t.deepEqual(first.result('wildcard gone').results, ['Removed: hwr-c-1.0-1.noarch', 'Removed: hwr-x-1.0-1.noarch']);
  t.deepEqual(again.result('wildcard gone').results, ['hwr-[cx]* is not installed']);
  t.is(await rpmList(host), 'hwr-a-2.0\nhwr-weak-1.0\n');
});
