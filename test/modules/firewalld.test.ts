import test from 'ava';
import { firewalldModule, planFirewall, type FirewalldArgs } from '../../src/modules/firewalld/firewalld.js';
import { parseBusSettings, parseBusString, parseListAll } from '../../src/modules/firewalld/parse.js';
import { conflictOf, describeBinding, isBindingConflict, parseFirewallError, parseZonesOf, zoneConflictError } from '../../src/modules/firewalld/conflict.js';
import type { ModuleContext } from '../../src/modules/types.js';
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
  t.deepEqual(both.map((c) => c.run[0]), ['firewall-cmd --zone=public --add-port=9000/tcp']);
  t.deepEqual(planFirewall(s, args({ zone: 'public', port: '9000/tcp', state: 'enabled', permanent: true })), []);
  t.deepEqual(planFirewall(s, args({ zone: 'public', port: '8080/tcp', state: 'disabled', permanent: true })).map((c) => c.run[0]), ['firewall-cmd --permanent --zone=public --remove-port=8080/tcp']);
  t.deepEqual(planFirewall(s, args({ zone: 'public', service: 'ssh', state: 'enabled', permanent: true, immediate: true })), []);
  t.deepEqual(planFirewall(s, args({ zone: 'public', service: 'ssh', state: 'disabled' })).map((c) => c.run[0]), ['firewall-cmd --zone=public --remove-service=ssh']);
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
  t.deepEqual(planFirewall(s, args({ zone: 'trusted', source: '10.97.0.0/16', state: 'enabled', permanent: true, offline: true }))[0].run, ['firewall-offline-cmd --zone=trusted --add-source=10.97.0.0/16']);
  t.throws(() => planFirewall(s, args({ zone: 'trusted', source: '10.97.0.0/16', state: 'enabled' })), { message: /not running.*runtime change .* not applicable/ });
  t.throws(() => planFirewall(s, args({ zone: 'trusted', source: '10.97.0.0/16', state: 'enabled', permanent: true })), { message: /offline: true/ });
});

test('bad zone and schema', (t) => {
  t.throws(() => readFirewall(loadCase('firewalld', 'probe-bad-zone').stdout, 'nozone'), { message: /no zone named nozone/ });
  t.false(firewalldModule.args.safeParse({ zone: 'z', port: '80', state: 'enabled' }).success);
  t.false(firewalldModule.args.safeParse({ zone: 'z', port: '80/tcp', service: 'ssh', state: 'enabled' }).success);
});

test('firewall-cmd errors and zone-of answers parse from recorded output', (t) => {
  const src = loadCase('firewalld', 'add-source-zone-conflict-runtime');
  t.deepEqual(parseFirewallError(src.stderr!), { code: 'ZONE_CONFLICT', detail: "'10.77.0.0/16' already bound to a zone" });
  t.true(isBindingConflict(parseFirewallError(src.stderr!)));
  const ifc = loadCase('firewalld', 'add-interface-zone-conflict-permanent');
  t.is(parseFirewallError(ifc.stderr!)?.code, 'INVALID_INTERFACE');
  t.true(isBindingConflict(parseFirewallError(ifc.stderr!)));
  t.false(isBindingConflict(parseFirewallError(loadCase('firewalld', 'bad-zone').stderr ?? '')));
  t.deepEqual(parseZonesOf(loadCase('firewalld', 'zones-of-source-runtime-only').stdout), { runtime: 'internal', permanent: undefined });
  t.deepEqual(parseZonesOf(loadCase('firewalld', 'zones-of-source-both').stdout), { runtime: 'internal', permanent: 'internal' });
  t.deepEqual(parseZonesOf(loadCase('firewalld', 'zones-of-source-unbound').stdout), { runtime: undefined, permanent: undefined });
  t.deepEqual(parseZonesOf(loadCase('firewalld', 'zones-of-interface-permanent').stdout), { runtime: undefined, permanent: 'internal' });
});

test('a conflict names the item, the zone holding it, runtime/permanent and the fix', (t) => {
  t.is(conflictOf({ runtime: 'trusted', permanent: 'trusted' }, 'trusted'), undefined);
  const both = zoneConflictError('source', '10.42.0.0/16', 'trusted', conflictOf({ runtime: 'internal', permanent: 'internal' }, 'trusted'));
  t.regex(both.message, /source 10\.42\.0\.0\/16 is bound to zone internal \(runtime and permanent\); cannot also add it to zone trusted: remove it there first \(firewall-cmd --zone internal --remove-source 10\.42\.0\.0\/16/);
  t.is(describeBinding({ runtime: 'a', permanent: 'b' }), 'zone a (runtime) and zone b (permanent)');
  t.regex(zoneConflictError('interface', 'eth1', 'trusted', undefined).message, /bound to another zone.*--get-zone-of-interface eth1/);
  // Recorded probe: 10.98.0.0/16 is in trusted at runtime and permanently: one message names both.
  const s = readFirewall(loadCase('firewalld', 'probe-source-conflict').stdout, 'public');
  t.throws(() => planFirewall(s, args({ zone: 'public', source: '10.98.0.0/16', state: 'enabled', permanent: true, immediate: true })), { message: /bound to zone trusted \(runtime and permanent\); cannot also add it to zone public/ });
});

test('apply: a ZONE_CONFLICT firewall-cmd reports is re-read and named (recorded outputs)', async (t) => {
  const conflictRun = loadCase('firewalld', 'add-source-zone-conflict-runtime');
  const zones = loadCase('firewalld', 'zones-of-source-runtime-only');
  const seen: string[] = [];
  const transport = {
    exec: async (cmd: string) => {
      seen.push(cmd);
      const c = cmd.startsWith('set -e') ? conflictRun : zones;
      return { code: c.rc, stdout: c.stdout, stderr: c.stderr ?? '' };
    },
  };
  const a = args({ zone: 'trusted', source: '10.77.0.0/16', state: 'enabled', permanent: true, immediate: true });
  const changes = [{ summary: 'add', run: ['firewall-cmd --zone trusted --add-source 10.77.0.0/16'] }];
  const ctx = { host: 'h', transport, check: false, diff: false, vars: {}, baseDir: '.', render: (s: string) => s, probe: async () => undefined } as unknown as ModuleContext;
  await t.throwsAsync(firewalldModule.apply!(changes, a, ctx), { message: /source 10\.77\.0\.0\/16 is bound to zone internal \(runtime\); cannot also add it to zone trusted/ });
  t.is(seen.length, 2);
  t.regex(seen[1], /firewall-cmd --get-zone-of-source=10\.77\.0\.0\/16; echo "::rc \$\?"; firewall-cmd --permanent --get-zone-of-source=/);
  // Any other failure stays a plain command error with firewall-cmd's own words.
  const other = { ...ctx, transport: { exec: async () => ({ code: 1, stdout: '', stderr: 'Error: INVALID_ZONE: nozone' }) } } as unknown as ModuleContext;
  await t.throwsAsync(firewalldModule.apply!(changes, a, other), { message: /command failed \(rc=1\).*\n.*INVALID_ZONE/ });
});
