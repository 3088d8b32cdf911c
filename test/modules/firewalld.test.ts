import test from 'ava';
import { firewalldModule, planFirewall, type FirewalldArgs } from '../../src/modules/firewalld/firewalld.js';
import { parseBusSettings, parseBusString, parseListAll } from '../../src/modules/firewalld/parse.js';
import { readFirewall } from '../../src/modules/firewalld/probe.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => firewalldModule.args.parse(a) as FirewalldArgs;

test('busctl JSON of runtime and permanent zone settings', (t) => {
  const rt = parseBusSettings(loadCase('firewalld', 'runtime-settings').stdout);
  t.deepEqual(rt, { sources: [], ports: [], services: ['ssh', 'dhcpv6-client'], interfaces: ['vt1a', 'vt1b', 'br-t1'], masquerade: true });
  t.deepEqual(parseBusSettings(loadCase('firewalld', 'permanent-settings').stdout).ports, ['8080/tcp']);
  t.is(parseBusString(loadCase('firewalld', 'zone-of-source').stdout), 'trusted');
  t.is(parseBusString(loadCase('firewalld', 'zone-of-source-none').stdout), undefined);
  t.deepEqual(parseListAll(loadCase('firewalld', 'offline-list').stdout), { sources: [], ports: ['8080/tcp'], services: ['dhcpv6-client', 'ssh'], interfaces: [], masquerade: false });
});

test('runtime and permanent are planned apart', (t) => {
  const s = readFirewall(loadCase('firewalld', 'probe-public').stdout, 'public');
  t.true(s.running);
  // Recorded: 8080/tcp and 9000/tcp are in the permanent config only.
  const both = planFirewall(s, args({ zone: 'public', port: '9000/tcp', state: 'enabled', permanent: true, immediate: true }));
  t.deepEqual(both.map((c) => c.run[0]), ['firewall-cmd --zone public --add-port 9000/tcp']);
  t.deepEqual(planFirewall(s, args({ zone: 'public', port: '9000/tcp', state: 'enabled', permanent: true })), []);
  t.deepEqual(planFirewall(s, args({ zone: 'public', port: '8080/tcp', state: 'disabled', permanent: true })).map((c) => c.run[0]), ['firewall-cmd --permanent --zone public --remove-port 8080/tcp']);
  t.deepEqual(planFirewall(s, args({ zone: 'public', service: 'ssh', state: 'enabled', permanent: true, immediate: true })), []);
  t.deepEqual(planFirewall(s, args({ zone: 'public', service: 'ssh', state: 'disabled' })).map((c) => c.run[0]), ['firewall-cmd --zone public --remove-service ssh']);
});

test('ZONE_CONFLICT names both zones (recorded source bound to trusted)', (t) => {
  t.regex(loadCase('firewalld', 'zone-conflict').stderr!, /ZONE_CONFLICT/);
  const s = readFirewall(loadCase('firewalld', 'probe-source-conflict').stdout, 'public');
  t.is(s.sourceZone.permanent, 'trusted');
  t.throws(() => planFirewall(s, args({ zone: 'public', source: '10.98.0.0/16', state: 'enabled', permanent: true })), { message: /ZONE_CONFLICT: source 10\.98\.0\.0\/16 is bound to zone trusted .*zone public/ });
});

test('daemon stopped: permanent via firewall-offline-cmd, runtime not applicable', (t) => {
  const c = loadCase('firewalld', 'probe-offline');
  const s = readFirewall(c.stdout, 'trusted');
  t.false(s.running);
  t.is(s.runtime, undefined);
  t.deepEqual(planFirewall(s, args(c.args!)), []);
  t.deepEqual(planFirewall(s, args({ zone: 'trusted', source: '10.97.0.0/16', state: 'enabled', permanent: true, offline: true }))[0].run, ['firewall-offline-cmd --zone trusted --add-source 10.97.0.0/16']);
  t.throws(() => planFirewall(s, args({ zone: 'trusted', source: '10.97.0.0/16', state: 'enabled' })), { message: /not running.*runtime change .* not applicable/ });
  t.throws(() => planFirewall(s, args({ zone: 'trusted', source: '10.97.0.0/16', state: 'enabled', permanent: true })), { message: /offline: true/ });
});

test('bad zone and schema', (t) => {
  t.throws(() => readFirewall(loadCase('firewalld', 'probe-bad-zone').stdout, 'nozone'), { message: /no zone named nozone/ });
  t.false(firewalldModule.args.safeParse({ zone: 'z', port: '80', state: 'enabled' }).success);
  t.false(firewalldModule.args.safeParse({ zone: 'z', port: '80/tcp', service: 'ssh', state: 'enabled' }).success);
});
