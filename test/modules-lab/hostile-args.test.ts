// Issue 18's argument injections, each on a real lab host: the value that used to escape (a sysctl
// key writing outside /proc/sys, an interface named like an ip keyword, an OVS map key with a
// comma, a firewalld zone read as a busctl option) is refused or reaches the tool as a value.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { labHost, moduleRunner, type LabHost, type ModuleRunner } from '../helpers/lab-host.js';
import { gatherFacts } from '../../src/facts/gather.js';
import { HOSTILE_STATE } from '../facts/record-hostile-fixtures.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
let host: LabHost;

test.before(async () => {
  host = await labHost(LAB);
  await host.sh('systemctl start openvswitch-switch firewalld');
});
test.after.always(async () => {
  await host?.close();
});

const run: ModuleRunner = (name, args, o) => moduleRunner(host)(name, args, o);
const sh = (cmd: string) => host.sh(cmd);
const links = async () => (JSON.parse(await sh('ip -j link show')) as { ifname: string }[]).map((l) => l.ifname).sort();

test.serial('sysctl: a key with `//` that maps outside /proc/sys is refused; the file there is untouched', async (t) => {
  t.timeout(60_000);
  await sh("printf 'orig\\n' > /tmp/h6-victim");
  // kernel.//.//.//.tmp.h6-victim -> /proc/sys/kernel/../../../tmp/h6-victim (it used to be written).
  await t.throwsAsync(run('sysctl', { name: 'kernel.//.//.//.tmp.h6-victim', value: 'pwned', sysctl_file: '/tmp/h6-sysctl.conf' }), { message: /invalid arguments for module 'sysctl': argument 'name': expected a sysctl key .*empty word/ });
  t.is(await sh('cat /tmp/h6-victim'), 'orig\n');
  t.is(await sh('test -e /tmp/h6-sysctl.conf && echo exists || echo absent'), 'absent\n');
});

test.serial('ip_link: interfaces named up, help, type, a are made, kept and deleted by name (no stray bridge0)', async (t) => {
  t.timeout(90_000);
  const before = await links();
  for (const name of ['up', 'help', 'type', 'a']) {
    t.true((await run('ip_link', { name, kind: 'bridge', mtu: 1400 })).changed, `${name}: created`);
    t.deepEqual(await links(), [...before, name].sort(), `${name}: exactly that link exists`);
    t.regex(await sh(`ip -o link show dev ${name}`), /mtu 1400 .*state UNKNOWN|mtu 1400/, `${name}: mtu set`);
    t.false((await run('ip_link', { name, kind: 'bridge', mtu: 1400 })).changed, `${name}: second run is a no-op`);
    await sh(`ip link set dev ${name} mtu 1500`);
    t.true((await run('ip_link', { name, kind: 'bridge', mtu: 1400 })).changed, `${name}: drift fixed`);
    t.true((await run('ip_link', { name, state: 'absent' })).changed, `${name}: deleted`);
    t.deepEqual(await links(), before, `${name}: gone, nothing else touched`);
  }
  const veth = await run('ip_link', { name: 'help', kind: 'veth', parameters: { peer: 'type' } });
  t.true(veth.changed);
  t.deepEqual(await links(), [...before, 'help', 'type'].sort());
  await run('ip_link', { name: 'help', state: 'absent' });
  await t.throwsAsync(run('ip_link', { name: 'h6/../x', kind: 'bridge' }), { message: /contains '\/'/ });
});

test.serial('ovs_db and ovs_port: a map key with a comma is one key', async (t) => {
  t.timeout(90_000);
  const ids = () => sh('ovs-vsctl --format=json get Open_vSwitch . external_ids');
  for (const [key, value] of [['h6k1', '1'], ['h6k2', '2'], ['h6k1,h6k2', 'both']]) t.true((await run('ovs_db', { table: 'Open_vSwitch', col: 'external_ids', key, value })).changed, key);
  t.regex(await ids(), /"h6k1,h6k2"="?both/);
  t.false((await run('ovs_db', { col: 'external_ids', key: 'h6k1,h6k2', value: 'both' })).changed, 'no-op');
  t.true((await run('ovs_db', { col: 'external_ids', key: 'h6k1,h6k2', state: 'absent' })).changed);
  const after = await ids();
  t.notRegex(after, /h6k1,h6k2/, 'the comma key is gone');
  t.regex(after, /h6k1="?1/, 'h6k1 kept');
  t.regex(after, /h6k2="?2/, 'h6k2 kept');
  await run('ovs_bridge', { bridge: 'h6br', datapath_type: 'netdev' });
  const opts = { remote_ip: '192.0.2.9', 'x,remote_ip': 'odd' };
  t.true((await run('ovs_port', { bridge: 'h6br', port: 'h6vx', type: 'vxlan', options: opts })).changed);
  t.regex(await sh('ovs-vsctl get interface h6vx options'), /"x,remote_ip"=odd/);
  // Dropping the odd key must not drop remote_ip (the unquoted remove deleted x and remote_ip).
  t.true((await run('ovs_port', { bridge: 'h6br', port: 'h6vx', type: 'vxlan', options: { remote_ip: '192.0.2.9' } })).changed);
  t.is((await sh('ovs-vsctl get interface h6vx options')).trim(), '{remote_ip="192.0.2.9"}');
  t.false((await run('ovs_port', { bridge: 'h6br', port: 'h6vx', type: 'vxlan', options: { remote_ip: '192.0.2.9' } })).changed);
});

test.serial('firewalld: a zone named --help is asked for as a zone, not read as busctl --help', async (t) => {
  t.timeout(90_000);
  await t.throwsAsync(run('firewalld', { zone: '--help', port: '8443/tcp', state: 'enabled' }), { message: /firewalld: no zone named --help/ });
  await t.throwsAsync(run('firewalld', { zone: 'public', source: '--help', state: 'enabled' }), { message: /argument 'source': .*starts with '-'/ });
  // firewalld's own rules allow such a zone: made permanent, it is read and changed like any other.
  await sh('firewall-cmd --permanent --new-zone=--h6z >/dev/null && firewall-cmd --reload >/dev/null');
  t.teardown(() => sh('firewall-cmd --permanent --delete-zone=--h6z >/dev/null; firewall-cmd --reload >/dev/null').then(() => undefined, () => undefined));
  const args = { zone: '--h6z', port: '8443/tcp', state: 'enabled', permanent: true, immediate: true };
  t.true((await run('firewalld', args)).changed);
  t.is((await sh('firewall-cmd --permanent --zone=--h6z --list-ports; firewall-cmd --zone=--h6z --list-ports')).trim(), '8443/tcp\n8443/tcp');
  t.false((await run('firewalld', args)).changed);
});

test.serial('a newline in a value never writes a second setting (sysctl, ini_file, lineinfile)', async (t) => {
  t.timeout(60_000);
  await sh("printf '[main]\\ndns=default\\n' > /tmp/h6.ini; printf 'a\\n' > /tmp/h6.lines");
  const before = await sh('cat /tmp/h6.ini /tmp/h6.lines; cat /proc/sys/kernel/hostname');
  await t.throwsAsync(run('sysctl', { name: 'net.ipv4.ip_forward', value: '1\nkernel.hostname=h6x', sysctl_file: '/tmp/h6-sysctl.conf' }), { message: /argument 'value': contains a newline/ });
  await t.throwsAsync(run('ini_file', { path: '/tmp/h6.ini', section: 'main', option: 'dns', value: 'none\n[keyfile]\nunmanaged-devices=*' }), { message: /argument 'value': contains a newline/ });
  await t.throwsAsync(run('lineinfile', { path: '/tmp/h6.lines', line: 'b\nc' }), { message: /argument 'line': contains a newline/ });
  t.is(await sh('cat /tmp/h6.ini /tmp/h6.lines; cat /proc/sys/kernel/hostname'), before, 'nothing written');
  t.is(await sh('test -e /tmp/h6-sysctl.conf && echo exists || echo absent'), 'absent\n');
  // The same task without the newline works (the refusal is about the character, not the module).
  t.true((await run('ini_file', { path: '/tmp/h6.ini', section: 'main', option: 'dns', value: 'none' })).changed);
  t.is(await sh('cat /tmp/h6.ini'), '[main]\ndns = none\n');
});

test.serial('hostile host state (odd bytes in names): facts keep every interface and the default route; modules still read', async (t) => {
  t.timeout(120_000);
  await sh('systemctl start NetworkManager');
  await sh(HOSTILE_STATE);
  const f = await gatherFacts(host.transport);
  t.deepEqual(f.hostwire_fact_errors, [], 'every fact read');
  t.true(f.ansible_interfaces.includes('h6\x01x') && f.ansible_interfaces.includes('h6"q'));
  t.like(f.ansible_default_ipv4, { interface: 'eth0', address: host.state.hosts[0].ip });
  // iptables: the chain's listing holds a comment with a newline and a jump to h6"c.
  const rule = { chain: 'H6', rule: '-s 10.0.0.3/32 -j ACCEPT', comment: 'h6 new' };
  t.true((await run('iptables', rule)).changed);
  t.false((await run('iptables', rule)).changed);
  t.true((await run('iptables', { ...rule, rule: '-s 10.0.0.4/32 -j ACCEPT' })).changed, 'the tagged rule is replaced in place');
  t.regex(await sh('iptables -S H6'), /--comment "line1\nline2" -j ACCEPT\n-A H6 -s 10\.0\.0\.2\/32 .*\n-A H6 -j h6"c\n-A H6 -s 10\.0\.0\.4\/32 -m comment --comment "h6 new" -j ACCEPT\n$/);
  t.false((await run('iptables', { chain: 'h6"c', rule: '-j RETURN' })).changed, 'a chain named h6"c is read: its rule is there');
  // NetworkManager: a profile named "h6\nnm" is one entry of the list; other profiles work beside it.
  const conn = { conn_name: 'h6-ok', type: 'bridge', ifname: 'h6ok0', properties: { 'ipv4.method': 'disabled', 'ipv6.method': 'disabled', 'connection.autoconnect': false } };
  t.true((await run('nm_connection', conn)).changed);
  t.false((await run('nm_connection', conn)).changed);
  t.regex(await sh('nmcli -g NAME connection show'), /^h6\nnm$/m, 'the odd profile is left alone');
  t.true((await run('nm_connection', { ...conn, state: 'absent' })).changed);
  // A PAC script holding a newline and a forged `ipv4.method:` line: unreadable, said so; never misread as disabled.
  await sh(`nmcli connection add type bridge con-name h6pac ifname h6pac0 ipv4.method manual ipv4.addresses 192.0.2.9/24 ipv6.method disabled connection.autoconnect no proxy.method auto proxy.pac-script "$(printf 'function FindProxyForURL(u, h) { return "DIRECT"; }\\nipv4.method:disabled')" >/dev/null`);
  await t.throwsAsync(run('nm_connection', { conn_name: 'h6pac', properties: { 'ipv4.method': 'manual' } }), { message: /nmcli connection show h6pac: property ipv4\.method is printed twice/ });
  t.is(await sh('nmcli -g ipv4.method connection show h6pac'), 'manual\n');
});

/** The lab host's connection vars for an inventory of our own. */
const labConn = () => ({ ansible_host: host.state.hosts[0].ip, ansible_user: 'root', ansible_ssh_private_key_file: host.state.keyFile, ansible_ssh_common_args: `-o UserKnownHostsFile=${host.state.knownHostsFile} -o StrictHostKeyChecking=yes`, hostwire_netns: host.state.netns });

test.serial("host names with quotes and {{ }} run as written: recap, registered name, retry file one host per line", async (t) => {
  t.timeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-h6names-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const conn = labConn();
  writeFileSync(path.join(dir, 'site.yml'), stringify([{ hosts: 'all', gather_facts: true, tasks: [
    { name: 'name', copy: { content: '{{ inventory_hostname }}|{{ ansible_default_ipv4.interface }}\n', dest: '/tmp/h6-name' } },
    { name: 'fail', command: '/bin/false' },
  ] }]));
  for (const name of [`h'q"d`, 'h6{{ 7*7 }}q']) {
    writeFileSync(path.join(dir, 'inv.yml'), stringify({ all: { hosts: { [name]: conn } } }));
    const events: RunEvent[] = [];
    const r = await runPlaybook({ playbook: path.join(dir, 'site.yml'), inventory: [path.join(dir, 'inv.yml')], onEvent: (e) => events.push(e) });
    const msgs = events.flatMap((e) => (e.type === 'host_result' && e.result.msg ? [String(e.result.msg)] : []));
    t.false(msgs.some((m) => /internal error/.test(m)), msgs.join('\n'));
    t.deepEqual(Object.keys(r.stats), [name]);
    t.like(r.stats[name], { ok: 2, changed: 1, failed: 1, unreachable: 0 });
    t.is(await sh('cat /tmp/h6-name'), `${name}|eth0\n`, 'the name reached the host as written');
    t.is(readFileSync(path.join(dir, 'site.retry'), 'utf8'), `${name}\n`);
  }
});

test.serial('a fact the host makes unreadable is a run warning naming it, not a silent empty value', async (t) => {
  t.timeout(60_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-h6facts-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await sh('chmod a-x /usr/bin/nproc');
  t.teardown(() => sh('chmod a+x /usr/bin/nproc').then(() => undefined, () => undefined));
  writeFileSync(path.join(dir, 'inv.yml'), stringify({ all: { hosts: { h6f: labConn() } } }));
  writeFileSync(path.join(dir, 'site.yml'), stringify([{ hosts: 'all', gather_facts: true, tasks: [{ debug: { var: 'hostwire_fact_errors' } }] }]));
  const events: RunEvent[] = [];
  const r = await runPlaybook({ playbook: path.join(dir, 'site.yml'), inventory: [path.join(dir, 'inv.yml')], retryFile: false, onEvent: (e) => events.push(e) });
  t.is(r.exitCode, 0);
  const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  t.true(warnings.some((w) => /^h6f: facts not read: nproc: /.test(w)), warnings.join('\n'));
});
