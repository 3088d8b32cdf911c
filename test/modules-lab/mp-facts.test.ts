// service_facts (and package_facts) on a real lab host: the facts land in ansible_facts with Ansible's
// shapes, read the host as it is (a unit stopped by hand shows stopped), change nothing, and answer
// the same under --check. Parity with ansible-core's own output is in the modules' recorded cases.
import test from 'ava';
import { labModuleTest } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const lab = labModuleTest(testLabName(import.meta.url));

const SERVICES = `
- hosts: all
  gather_facts: false
  tasks:
    - name: services
      ansible.builtin.service_facts:
      register: sf
    - name: seen
      debug:
        msg: "{{ ansible_facts.services['ssh.service'].state }} {{ services['firewalld.service'].state }} {{ ansible_facts.services['ssh'].source }}"
`;

test.serial('service_facts reads systemd and sysvinit services as Ansible names them', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  await host.sh('systemctl stop firewalld && systemctl mask uuidd.service >/dev/null 2>&1');
  const run = await play('services', SERVICES);
  const sf = run.result('services');
  t.is(sf.outcome, 'ok');
  t.is(run.changed, 0);
  const services = sf.ansible_facts.services as Record<string, Record<string, string>>;
  t.deepEqual(services['ssh.service'], { name: 'ssh.service', state: 'running', status: 'enabled', source: 'systemd' });
  t.deepEqual(services['firewalld.service'], { name: 'firewalld.service', state: 'stopped', status: 'enabled', source: 'systemd' });
  t.deepEqual(services['uuidd.service'], { name: 'uuidd.service', state: 'stopped', status: 'masked', source: 'systemd' });
  t.deepEqual(services['getty@.service'], { name: 'getty@.service', state: 'unknown', status: 'disabled', source: 'systemd' });
  t.deepEqual(services.ssh, { name: 'ssh', state: 'running', source: 'sysv' });
  t.is(run.result('seen').msg, 'running stopped sysv');

  const checked = await play('services-check', SERVICES, { check: true });
  t.is(checked.result('services').outcome, 'ok', 'a read runs under --check');
  t.deepEqual(checked.result('services').ansible_facts.services['firewalld.service'], services['firewalld.service']);
});

const PACKAGES = `
- hosts: all
  gather_facts: false
  tasks:
    - name: packages
      package_facts: { manager: auto }
      register: pf
    - name: seen
      debug:
        msg: "{{ ansible_facts.packages['mp-facts-local'][0].version }} {{ 'ethtool' in packages }}"
    - name: not built
      package_facts: { manager: pacman }
      ignore_errors: true
    - name: unknown
      package_facts: { manager: [apt, zypper] }
      ignore_errors: true
`;

test.serial('package_facts lists dpkg packages as Ansible names them, a local .deb and a removal included', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  // A package of the test's own, in no apt index: origin '' and dpkg's section.
  await host.sh(
    'set -e; d=$(mktemp -d); mkdir -p $d/DEBIAN; printf "Package: mp-facts-local\\nVersion: 2.5-1\\nArchitecture: all\\n' +
      'Maintainer: hostwire tests <t@example.invalid>\\nSection: misc\\nDescription: test\\n" > $d/DEBIAN/control; ' +
      'dpkg-deb -b $d /tmp/mp-facts-local.deb >/dev/null; dpkg -i /tmp/mp-facts-local.deb >/dev/null; dpkg -r ethtool >/dev/null',
  );
  const run = await play('packages', PACKAGES);
  t.is(run.changed, 0);
  const packages = run.result('packages').ansible_facts.packages as Record<string, Record<string, unknown>[]>;
  t.deepEqual(packages['mp-facts-local'], [{ name: 'mp-facts-local', version: '2.5-1', arch: 'all', category: 'misc', origin: '', source: 'apt' }]);
  t.like(packages.dpkg[0], { name: 'dpkg', source: 'apt', arch: 'amd64' });
  t.false('ethtool' in packages, 'a removed package is gone');
  t.is(run.result('seen').msg, '2.5-1 False');
  t.like(run.result('not built'), { outcome: 'failed', msg: 'package_facts: the manager pacman is not built in hostwire (apt and rpm are)' });
  t.like(run.result('unknown'), { outcome: 'failed', msg: 'Unsupported package managers requested: zypper' });

  const checked = await play('packages-check', PACKAGES, { check: true });
  t.deepEqual(checked.result('packages').ansible_facts.packages['mp-facts-local'], packages['mp-facts-local'], 'the same under --check');
});
