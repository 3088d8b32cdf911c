import test from 'ava';
import { assembleFacts } from '../../src/facts/gather.js';
import { factIdsFor } from '../../src/facts/subsets.js';
import { fixtureBatch } from './helpers.js';

test('facts of this Debian machine, Ansible names', (t) => {
  const f = assembleFacts(fixtureBatch('debian-host'));
  t.like(f, {
    ansible_hostname: 'vm', ansible_distribution: 'Debian', ansible_distribution_version: '12',
    ansible_distribution_major_version: '12', ansible_distribution_release: 'bookworm', ansible_os_family: 'Debian',
    ansible_kernel: '6.18.44-fc-v669', ansible_processor_nproc: 2, ansible_memtotal_mb: 24105, ansible_pkg_mgr: 'apt',
    hostwire_systemd: false, hostwire_pkg_mgr: 'apt',
  });
  // Ansible's shapes (module_utils/facts/network/linux.py): prefixes as strings, alias, broadcast, type.
  t.deepEqual(f.ansible_default_ipv4, {
    interface: 'eth0', alias: 'eth0', gateway: '192.0.2.1', address: '192.0.2.2', broadcast: '192.0.2.255', prefix: '24', netmask: '255.255.255.0',
    network: '192.0.2.0', mtu: 1400, macaddress: '02:fc:00:00:00:01', type: 'ether',
  });
  t.deepEqual(f.ansible_default_ipv6, { interface: 'eth0', gateway: 'fd00::1', address: 'fd00::2', prefix: '64', scope: 'global', mtu: 1400, macaddress: '02:fc:00:00:00:01', type: 'ether' });
  t.deepEqual(f.ansible_interfaces, ['lo', 'ifb0', 'ifb1', 'eth0']);
  t.deepEqual(f.ansible_all_ipv4_addresses, ['192.0.2.2'], 'no loopback addresses, as Ansible');
  t.is(f.hostwire_interfaces.eth0!.mtu, 1400);
  t.like(f.ansible_eth0, { device: 'eth0', mtu: 1400, ipv4: { address: '192.0.2.2', prefix: '24' }, type: 'ether', promisc: false });
  t.like(f, { ansible_processor_vcpus: 2, ansible_python_version: '3.11.7', ansible_fqdn: 'vm', ansible_domain: '', ansible_local: {} });
  t.like(f, { ansible_system: 'Linux', ansible_machine: 'x86_64', ansible_architecture: 'x86_64', ansible_userspace_bits: '64', ansible_userspace_architecture: 'x86_64', ansible_machine_id: '3d1219c7c4c5404aaa1f6d2a48adfda4' });
  t.deepEqual(f.hostwire_fact_errors, []);
});

test('no default route and no IPv6: empty objects like Ansible', (t) => {
  const f = assembleFacts(fixtureBatch('netns-no-ipv6'));
  t.deepEqual(f.ansible_default_ipv4, {});
  t.deepEqual(f.ansible_default_ipv6, {});
  t.deepEqual(f.ansible_all_ipv6_addresses, []);
});

test('a broken or missing probe is reported, the rest still parsed', (t) => {
  const outs = fixtureBatch('debian-host');
  outs.set('ip_addr', { stdout: 'garbage', rc: 0 });
  outs.delete('nproc');
  const f = assembleFacts(outs);
  t.deepEqual(f.ansible_interfaces, []);
  t.is(f.ansible_processor_nproc, 0);
  t.is(f.ansible_kernel, '6.18.44-fc-v669');
  t.is(f.hostwire_fact_errors.length, 2);
  t.regex(f.hostwire_fact_errors.join('\n'), /ip_addr: cannot parse ip -j addr output as JSON/);
  t.regex(f.hostwire_fact_errors.join('\n'), /nproc: no output/);
});

test('gather_subset: min always (unless !min), network, hardware, all; unknown names are bad input', (t) => {
  const ids = (s: unknown) => [...factIdsFor(s)].sort();
  t.true(ids('all').includes('firewalld') && ids('all').includes('memtotal'));
  t.deepEqual(ids(['!all', '!min', 'network']), ['ip_addr', 'route4', 'route6']);
  t.true(ids('network').includes('os_release') && !ids('network').includes('memtotal'), 'min comes with any subset');
  t.false(ids(['all', '!hostwire']).includes('ovs'));
  t.throws(() => factIdsFor(['netwrok']), { message: /^Bad subset 'netwrok' given to Ansible\. gather_subset options allowed: all, all_ipv4_addresses, all_ipv6_addresses, apparmor, / });
  // Ansible's get_collector_names: !all keeps min, order does not matter, an explicit name beats an exclusion.
  t.deepEqual(ids('!all'), ids('min'));
  t.deepEqual(ids(['network', '!all']), ids(['!all', 'network']));
  t.true(ids(['!all', 'network']).includes('ip_addr') && ids(['!all', 'network']).includes('os_release'));
  t.deepEqual(ids(['!network', 'network']), ids('network'));
  t.deepEqual(ids(['!all', '!min']), []);
  t.deepEqual(ids(['all', '!nosuch']), ids('all'), 'excluding an unknown subset is ignored');
  // Ansible's finer names: linux-system-roles' set_vars asks `!all,!min,distribution,...,os_family`.
  t.deepEqual(ids(['!all', '!min', 'distribution', 'distribution_major_version', 'distribution_version', 'os_family']), ['os_release']);
  t.deepEqual(ids(['!all', '!min', 'default_ipv4']), ['ip_addr', 'route4', 'route6']);
  t.deepEqual(ids(['!all', '!min', 'date_time']), [], 'a collector hostwire has no facts for reads nothing');
  t.false(ids(['min', '!distribution']).includes('os_release'), 'excluding a finer name drops its read');
  t.true(ids(['!all', '!min', 'platform']).includes('kernel'));
  // Facts outside the subset are undefined, not empty values that would mislead a template.
  const f = assembleFacts(fixtureBatch('debian-host'), factIdsFor(['!all', '!min', 'network'])) as unknown as Record<string, unknown>;
  t.like(f.ansible_default_ipv4, { address: '192.0.2.2' });
  t.false('ansible_memtotal_mb' in f);
  t.false('hostwire_firewalld' in f);
  t.deepEqual(f.hostwire_fact_errors, [], 'facts not asked for are not errors');
  for (const k of ['ansible_distribution', 'ansible_os_family', 'ansible_hostname', 'ansible_kernel', 'ansible_service_mgr', 'ansible_pkg_mgr']) t.false(k in f, `${k} is not gathered under !min`);
  t.is((assembleFacts(fixtureBatch('debian-host'), factIdsFor('!all')) as unknown as Record<string, unknown>).ansible_os_family, 'Debian', '!all keeps min');
});
