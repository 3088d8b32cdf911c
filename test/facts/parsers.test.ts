import test from 'ava';
import { ProbeParseError } from '../../src/errors.js';
import { defaultRouteV4Fact, defaultRouteV6Fact } from '../../src/facts/default-routes.js';
import { firewalldFact } from '../../src/facts/firewalld.js';
import { hostnameFact } from '../../src/facts/hostname.js';
import { interfacesFact, netmaskOf } from '../../src/facts/interfaces.js';
import { kernelFact } from '../../src/facts/kernel.js';
import { ansiblePlatform, platformFact } from '../../src/facts/platform.js';
import { memoryFact } from '../../src/facts/memory.js';
import { networkManagerFact } from '../../src/facts/network-manager.js';
import { nprocFact } from '../../src/facts/nproc.js';
import { distributionName, osFamily, osReleaseFact } from '../../src/facts/os-release.js';
import { ovsFact } from '../../src/facts/ovs.js';
import { familyPkgMgr, pkgMgrFact } from '../../src/facts/pkg-mgr.js';
import { systemdFact } from '../../src/facts/systemd.js';
import { probeOut } from './helpers.js';

const host = (id: string) => probeOut('debian-host', id);

test('os-release', (t) => {
  const os = osReleaseFact.parse(host('os_release'));
  t.like(os, { id: 'debian', name: 'Debian GNU/Linux', version: '12', codename: 'bookworm', prettyName: 'Debian GNU/Linux 12 (bookworm)' });
  t.is(distributionName(os), 'Debian');
  t.is(osFamily(os), 'Debian');
  t.is(osFamily({ ...os, id: 'rocky', idLike: ['rhel', 'centos', 'fedora'] }), 'RedHat');
  t.throws(() => osReleaseFact.parse({ stdout: '', rc: 1 }), { instanceOf: ProbeParseError });
});

test('kernel, hostname, nproc, memory', (t) => {
  t.is(kernelFact.parse(host('kernel')), '6.18.44-fc-v669');
  t.deepEqual(hostnameFact.parse(host('hostname')), { nodename: 'vm', hostname: 'vm' });
  t.deepEqual(hostnameFact.parse({ stdout: 'node-1.lab.example\n', rc: 0 }), { nodename: 'node-1.lab.example', hostname: 'node-1' });
  t.is(nprocFact.parse(host('nproc')), 2);
  t.is(memoryFact.parse(host('memtotal')), 24105);
  const e = t.throws(() => nprocFact.parse({ stdout: 'sh: nproc: not found', rc: 127 }), { instanceOf: ProbeParseError });
  t.is(e!.raw, 'sh: nproc: not found');
});

test('interfaces: MTU, flags, MAC, v4 and v6 addresses', (t) => {
  const ifs = interfacesFact.parse(host('ip_addr'));
  t.deepEqual(ifs.map((i) => i.device), ['lo', 'ifb0', 'ifb1', 'eth0']);
  const eth0 = ifs.find((i) => i.device === 'eth0')!;
  t.like(eth0, { mtu: 1400, active: true, operstate: 'UP', macaddress: '02:fc:00:00:00:01', type: 'ether' });
  t.deepEqual(eth0.ipv4, [{ address: '192.0.2.2', prefix: 24, netmask: '255.255.255.0', network: '192.0.2.0', broadcast: '192.0.2.255' }]);
  t.deepEqual(eth0.ipv6, [{ address: 'fd00::2', prefix: 64, scope: 'global' }, { address: 'fe80::fc:ff:fe00:1', prefix: 64, scope: 'link' }]);
  t.like(ifs.find((i) => i.device === 'ifb0'), { active: false, ipv4: [], ipv6: [] });
  t.is(ifs.find((i) => i.device === 'lo')!.macaddress, undefined);
  t.deepEqual([0, 8, 20, 32].map(netmaskOf), ['0.0.0.0', '255.0.0.0', '255.255.240.0', '255.255.255.255']);
  t.throws(() => interfacesFact.parse({ stdout: 'Option "-j" is unknown', rc: 255 }), { instanceOf: ProbeParseError });
});

test('interfaces without IPv6 (netns with IPv6 disabled)', (t) => {
  const ifs = interfacesFact.parse(probeOut('netns-no-ipv6', 'ip_addr'));
  t.deepEqual(ifs.map((i) => [i.device, i.ipv4.map((a) => a.address), i.ipv6]), [['lo', ['127.0.0.1'], []]]);
});

test('default routes v4 and v6, and none', (t) => {
  t.deepEqual(defaultRouteV4Fact.parse(host('route4')), [{ interface: 'eth0', gateway: '192.0.2.1' }]);
  t.deepEqual(defaultRouteV6Fact.parse(host('route6')), [{ interface: 'eth0', gateway: 'fd00::1', metric: 1024 }]);
  t.deepEqual(defaultRouteV4Fact.parse(probeOut('netns-no-ipv6', 'route4')), []);
  t.deepEqual(defaultRouteV6Fact.parse(probeOut('netns-no-ipv6', 'route6')), []);
});

test('systemd absent as PID 1 on this machine', (t) => {
  t.deepEqual(systemdFact.parse(host('systemd')), { systemd: false });
  t.deepEqual(systemdFact.parse({ stdout: '/usr/lib/systemd/systemd\n@run-systemd-system\n', rc: 0 }), { systemd: true, pid1: 'systemd' });
});

test('missing tools (rc 127): NetworkManager, OVS, firewalld absent', (t) => {
  t.deepEqual(networkManagerFact.parse(host('networkmanager')), { present: false, running: false, plugins: [] });
  t.deepEqual(ovsFact.parse(host('ovs')), { present: false, running: false });
  t.deepEqual(firewalldFact.parse(host('firewalld')), { present: false, running: false, state: '' });
});

test('installed tools: OVS version and NetworkManager plugins (daemon not running)', (t) => {
  t.deepEqual(ovsFact.parse(probeOut('tools-installed', 'ovs')), { present: true, version: '3.1.0', dbSchema: '8.3.1', running: false });
  t.deepEqual(networkManagerFact.parse(probeOut('tools-installed', 'networkmanager')), {
    present: true, running: false, plugins: ['adsl', 'bluetooth', 'team', 'wifi', 'wwan'],
  });
});

test('package manager', (t) => {
  t.is(pkgMgrFact.parse(host('pkg_mgr')), 'apt');
  t.is(pkgMgrFact.parse({ stdout: '/usr/bin/dnf\n/usr/bin/yum\n', rc: 127 }), 'dnf');
  t.is(pkgMgrFact.parse({ stdout: '', rc: 127 }), 'unknown');
  // Debian with dnf installed (the dnf lab host): apt, as Ansible's fact says; elsewhere what was found.
  t.is(familyPkgMgr('dnf', 'Debian'), 'apt');
  t.is(familyPkgMgr('dnf', 'RedHat'), 'dnf');
});

test('platform: uname, getconf and the machine id, recorded on a lab host (and with an empty /etc/machine-id)', (t) => {
  const p = platformFact.parse(probeOut('nspawn-platform', 'platform'));
  t.deepEqual(p, { system: 'Linux', kernelVersion: '#1 SMP PREEMPT_DYNAMIC @0', machine: 'x86_64', userspaceBits: '64', machineId: '0cf34b478be44cfe86b3b7ab596e2c3e' });
  t.deepEqual(ansiblePlatform(p), {
    ansible_system: 'Linux', ansible_kernel_version: '#1 SMP PREEMPT_DYNAMIC @0', ansible_machine: 'x86_64', ansible_architecture: 'x86_64',
    ansible_userspace_bits: '64', ansible_userspace_architecture: 'x86_64', ansible_machine_id: '0cf34b478be44cfe86b3b7ab596e2c3e',
  });
  const none = platformFact.parse(probeOut('no-machine-id-platform', 'platform'));
  t.is(none.machineId, '');
  t.false('ansible_machine_id' in ansiblePlatform(none));
  // Another architecture: Ansible's architecture is the machine, no userspace_architecture (platform.py).
  t.deepEqual(ansiblePlatform({ ...p, machine: 'aarch64' }).ansible_architecture, 'aarch64');
  t.false('ansible_userspace_architecture' in ansiblePlatform({ ...p, machine: 'aarch64' }));
  t.throws(() => platformFact.parse({ stdout: 'Linux\n', rc: 0 }), { instanceOf: ProbeParseError });
  t.throws(() => platformFact.parse({ stdout: '', rc: 127 }), { instanceOf: ProbeParseError });
});
