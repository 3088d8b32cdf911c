// Hostile argument values (issue 18, "argument injection"): each is refused with a message naming
// the value and the rule, or reaches the tool in a form it cannot read as anything but a value.
import test from 'ava';
import { getModule } from '../../src/modules/all.js';
import { planLink, type IpLinkArgs } from '../../src/modules/ip_link/ip_link.js';
import { parseLinks } from '../../src/modules/ip_link/parse.js';
import { planDb, type OvsDbArgs } from '../../src/modules/ovs_db/ovs_db.js';
import { planPort, type OvsPortArgs } from '../../src/modules/ovs_port/ovs_port.js';
import { firewallProbeCommand } from '../../src/modules/firewalld/probe.js';
import { ifnameProblem } from '../../src/modules/kit/ifname.js';
import { procPath } from '../../src/modules/sysctl/parse.js';
import { loadCase } from './net-cases.js';

const parse = (module: string, a: Record<string, unknown>) => getModule(module)!.args.safeParse(a);
const refused = (module: string, a: Record<string, unknown>) => {
  const r = parse(module, a);
  return r.success ? '' : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
};

test('sysctl: a key whose /proc/sys path would leave /proc/sys is refused, as sysctl(8) refuses it', (t) => {
  // `.//.` swaps to `/../`: this key was written to /tmp/h6-victim.
  t.is(procPath('kernel.//.//.//.tmp.h6-victim'), '/proc/sys/kernel/../../../tmp/h6-victim');
  for (const name of ['kernel.//.//.//.tmp.h6-victim', 'net..ipv4.ip_forward', 'net/ipv4//ip_forward', 'net.ipv4.', 'net.ipv4.ip_forward/', '-net.ipv4.ip_forward', 'net.ipv4.ip_forward=1']) {
    t.regex(refused('sysctl', { name, value: 1 }), /^name: expected a sysctl key like net\.ipv4\.ip_forward \(this one /, name);
  }
  t.regex(refused('sysctl', { name: 'a..b', value: 1 }), /\(this one has an empty word .* not stay under \/proc\/sys\)/);
  // A newline in the value would write a second setting into the sysctl.d file.
  t.regex(refused('sysctl', { name: 'net.ipv4.ip_forward', value: '1\nkernel.hostname=x' }), /^value: contains a newline \(\\n\) at character 2: a sysctl value must fit on one line/);
  t.true(parse('sysctl', { name: 'net.ipv4.ip_local_port_range', value: '32768\t60999' }).success, 'a tab is a blank, as the kernel prints it');
  for (const name of ['net.ipv4.ip_forward', 'net/ipv4/ip_forward', 'net.ipv4.conf.eth0/100.rp_filter', 'net.ipv6.conf.br-ex.forwarding']) t.true(parse('sysctl', { name, value: 1 }).success, name);
});

test('interface names follow the kernel (1-15 bytes, no / : whitespace, not . or ..) and refuse control characters', (t) => {
  for (const ok of ['eth0', 'up', 'help', 'type', 'a', 'dev', 'br-ex.100', 'vx@1', 'é12345678901234'.slice(0, 14)]) t.is(ifnameProblem(ok), undefined, ok);
  t.regex(ifnameProblem('')!, /is empty/);
  t.regex(ifnameProblem('0123456789abcdef')!, /has 16 bytes/);
  t.regex(ifnameProblem('ééééééééé')!, /has 18 bytes/);
  t.regex(ifnameProblem('..')!, /is '\.\.'/);
  t.regex(ifnameProblem('a/b')!, /contains '\/'/);
  t.regex(ifnameProblem('eth0:1')!, /contains ':'/);
  t.regex(ifnameProblem('a b')!, /contains a space/);
  t.regex(ifnameProblem('a\nb')!, /contains a newline/);
  t.regex(ifnameProblem('a\x01b')!, /contains U\+0001/);
  t.regex(refused('ip_link', { name: 'x/../y', kind: 'bridge' }), /^name: expected an interface name: .*\(this one contains '\/' /);
  t.regex(refused('ip_link', { name: 'vx1', kind: 'veth', parameters: { peer: 'a b' } }), /^parameters\.peer: expected an interface name/);
  t.regex(refused('ip_addr', { dev: 'eth0\n', addresses: '192.0.2.1/24' }), /^dev: .*contains a newline/);
  t.regex(refused('ip_route', { dst: 'default', dev: 'a:b' }), /^dev: .*contains ':'/);
  t.regex(refused('route_set', { network: '10.0.0.0/8', routes: [{ dst: '10.1.0.0/16', dev: '.' }] }), /^routes\.0\.dev: .*is '\.'/);
  t.regex(refused('firewalld', { zone: 'public', interface: 'eth0 x', state: 'enabled' }), /^interface: .*contains a space/);
});

test("ip_link: names that are ip keywords (up, help, type, a) are passed as `name X` / `dev X`", (t) => {
  const args = (a: Record<string, unknown>) => getModule('ip_link')!.args.parse(a) as IpLinkArgs;
  const none = parseLinks(loadCase('ip_link', 'links').stdout);
  t.deepEqual(planLink(none, args({ name: 'type', kind: 'bridge', mtu: 1400 }))[0].run.slice(1), ['ip link set dev type up']);
  t.regex(planLink(none, args({ name: 'up', kind: 'vxlan', parameters: { id: 5, dev: 'help' } }))[0].run[0], /^out=\$\(ip link add name up type vxlan id 5 dstport 4789 dev help 2>&1\)/);
  t.regex(planLink(none, args({ name: 'a', kind: 'veth', parameters: { peer: 'help' } }))[0].run[0], /ip link add name a type veth peer name help /);
  const links = new Map([['help', { name: 'help', kind: 'bridge', mtu: 1500, up: false, data: {} }]]);
  t.deepEqual(planLink(links, args({ name: 'help', kind: 'bridge', mtu: 1400 }))[0].run, ['ip link set dev help mtu 1400', 'ip link set dev help up']);
  t.deepEqual(planLink(links, args({ name: 'help', state: 'absent' }))[0].run, ['ip link del dev help']);
  // The kernel-lacks-a-kind message is quoted text, never shell: a name like $(id) stays a name.
  const add = planLink(none, args({ name: '$(id)', kind: 'bridge' }))[0].run[0];
  t.true(add.startsWith("out=$(ip link add name '$(id)' type bridge 2>&1)"));
  t.regex(add, /printf '%s\\n' 'kernel lacks bridge: ip link add \$\(id\) failed/);
});

test('ovs_db / ovs_port: map keys are quoted as ovs-vsctl requires (a comma no longer splits a key)', (t) => {
  const db = (a: Record<string, unknown>) => getModule('ovs_db')!.args.parse(a) as OvsDbArgs;
  t.deepEqual(planDb({ value: 'v' }, db({ col: 'external_ids', key: 'k1,k2', state: 'absent' }))[0].run, [`ovs-vsctl --timeout=5 remove Open_vSwitch . external_ids '"k1,k2"'`]);
  t.deepEqual(planDb({}, db({ col: 'external_ids', key: 'k1,k2', value: 'a=b,c' }))[0].run, [`ovs-vsctl --timeout=5 set Open_vSwitch . 'external_ids:"k1,k2"="a=b,c"'`]);
  t.regex(refused('ovs_db', { col: 'external_ids:x=1', key: 'k', value: 'v' }), /^col: expected an OVSDB column name/);
  t.regex(refused('ovs_db', { table: 'Bridge br0', col: 'other_config', value: 'v' }), /^table: expected an OVSDB table name/);
  const port = getModule('ovs_port')!.args.parse({ bridge: 'br0', port: 'p0', type: 'internal' }) as OvsPortArgs;
  const [c] = planPort({ exists: true, bridge: 'br0', type: 'internal', options: { 'a,b': '1', 'x y': '2' }, externalIds: {} }, port);
  t.is(c.run[0], `ovs-vsctl --timeout=5 remove interface p0 options '"a,b"' -- remove interface p0 options '"x y"'`);
});

test('firewalld: zone, service and source names follow firewalld; none can become an option', (t) => {
  t.regex(refused('firewalld', { zone: 'pub lic', port: '80/tcp', state: 'enabled' }), /^zone: expected a firewalld zone name \(this one contains a space/);
  t.regex(refused('firewalld', { zone: 'a'.repeat(18), port: '80/tcp', state: 'enabled' }), /has 18 characters, firewalld allows 17/);
  t.regex(refused('firewalld', { zone: 'a/b/c', port: '80/tcp', state: 'enabled' }), /more than one '\/'/);
  t.regex(refused('firewalld', { zone: 'public', service: 'ssh http', state: 'enabled' }), /^service: .*contains a space/);
  t.regex(refused('firewalld', { zone: 'public', source: '--help', state: 'enabled' }), /^source: .*starts with '-'/);
  t.true(parse('firewalld', { zone: 'my-zone_1/sub', source: 'ipset:my-set', state: 'enabled' }).success);
  // Every busctl call ends its options with `--`; firewall-cmd gets `--opt=value` words.
  const cmd = firewallProbeCommand('public', '10.0.0.0/8');
  t.false(/busctl (--json=short )?call/.test(cmd), 'no busctl call without --');
  t.regex(cmd, /busctl --json=short -- call org\.fedoraproject\.FirewallD1 \/org\/fedoraproject\/FirewallD1 org\.fedoraproject\.FirewallD1\.zone getZoneSettings2 s public/);
  t.regex(cmd, /firewall-cmd --zone=public --list-all/);
  t.regex(cmd, /firewall-cmd --get-zone-of-source=10\.0\.0\.0\/8/);
  t.regex(cmd, /firewall-offline-cmd --zone=public --list-all/);
  // firewalld itself allows '-' anywhere, so `--help` is a zone name: it reaches every tool as a value.
  const help = firewallProbeCommand('--help', '--x');
  t.true(parse('firewalld', { zone: '--help', port: '80/tcp', state: 'enabled' }).success);
  t.regex(help, /busctl --json=short -- call \S+ \S+ \S+ getZoneSettings2 s --help ;/);
  t.regex(help, /busctl -- call \S+ \S+ \S+ getZoneByName s --help\)/);
  t.regex(help, /firewall-cmd --zone=--help --list-all/);
  t.regex(help, /firewall-cmd --get-zone-of-source=--x/);
  t.regex(help, /getZoneOfSource s --x/);
});

test('control characters never reach a line-based config file: one shared check, the character named', (t) => {
  t.regex(refused('ini_file', { path: '/etc/x.conf', section: 'main', option: 'dns', value: 'none\n[evil]\nplugins=x' }), /^value: contains a newline \(\\n\) at character 5: an INI value must fit on one line/);
  t.regex(refused('ini_file', { path: '/etc/x.conf', section: 'main]\n[evil', option: 'a', value: '1' }), /^section: contains a newline/);
  t.regex(refused('ini_file', { path: '/etc/x.conf', section: 'main', option: 'a=b', value: '1' }), /^option: an INI option name cannot contain '='/);
  t.regex(refused('ini_file', { path: '/etc/x.conf', option: 'a', value: 'x\ry' }), /^value: contains a carriage return/);
  t.regex(refused('lineinfile', { path: '/etc/hosts', line: '10.0.0.1 a\n10.0.0.2 b' }), /^line: contains a newline .*lineinfile's line must fit on one line/);
  t.regex(refused('lineinfile', { path: '/etc/hosts', line: 'a\u2028b' }), /^line: contains U\+2028/);
  t.regex(refused('nm_connection', { conn_name: 'br\nx', type: 'bridge' }), /^conn_name: contains a newline/);
  t.regex(refused('nm_connection', { conn_name: 'br', properties: { 'ipv4.dns': ['1.1.1.1', '8.8.8.8\x00'] } }), /^properties\.ipv4\.dns\.1: contains a NUL byte/);
  t.regex(refused('nm_connection', { conn_name: 'br', ifname: 'br 0' }), /^ifname: expected an interface name/);
  t.true(parse('nm_connection', { conn_name: 'br', type: 'bridge', ifname: '*' }).success);
  t.regex(refused('systemd_unit', { name: 'x.service', content: '[Service]\nExecStart=/bin/true\x1b[2J\n' }), /^content: contains U\+001B on line 2: a systemd unit file cannot hold control characters/);
  t.true(parse('systemd_unit', { name: 'x.service', content: '[Service]\r\n\tExecStart=/bin/true\n' }).success, 'newlines, CRLF and tabs are a file\'s own');
  t.true(parse('ini_file', { path: '/etc/x.conf', section: 'main', option: 'a', value: 'tab\tand spaces' }).success);
  t.regex(refused('iptables', { chain: 'HW', rule: '-j ACCEPT', comment: 'a\nb' }), /^comment: contains a newline .*an iptables comment must fit on one line/);
  t.regex(refused('iptables', { chain: '--help', rule: '-j ACCEPT' }), /^chain: expected a chain name: .*not starting with '-'/);
  t.regex(refused('iptables', { chain: 'A'.repeat(29), rule: '-j ACCEPT' }), /^chain: expected a chain name of at most 28 bytes/);
});
