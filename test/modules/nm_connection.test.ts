import test from 'ava';
import { nmConnectionModule, planNm, readNm, sameValue, type NmArgs } from '../../src/modules/nm_connection/nm_connection.js';
import { escapeTerse, parseConnList, parseConnSettings, parseGetValues, splitTerse } from '../../src/modules/nm_connection/parse.js';
import { loadCase } from './net-cases.js';

const args = (a: Record<string, unknown>) => nmConnectionModule.args.parse(a) as NmArgs;

test('terse escaping: \\: and \\\\ (recorded list with a profile named hw:tmp\\x)', (t) => {
  t.deepEqual(splitTerse('hw\\:tmp\\\\x:uuid:bridge::no'), ['hw:tmp\\x', 'uuid', 'bridge', '', 'no']);
  t.is(escapeTerse('a\\b:c'), 'a\\\\b\\:c');
  t.deepEqual(splitTerse(escapeTerse('x:\\:y')), ['x:\\:y']);
  const list = parseConnList(loadCase('nm_connection', 'list-filename').stdout);
  const odd = list.find((c) => c.uuid === '562e8ea3-bb3f-4e19-8fe7-db1ec9fb5818')!;
  t.is(odd.name, 'hw:tmp\\x');
  t.is(odd.filename, '/run/NetworkManager/system-connections/hw:tmp\\x.nmconnection');
  t.like(list.find((c) => c.name === 'hw-br0'), { type: 'bridge', device: 'hwbr0', active: true, state: 'activated' });
});

test('-g values and multiline settings', (t) => {
  t.deepEqual(parseGetValues(loadCase('nm_connection', 'get-escaped').stdout), ['hw-br0', 'a\\b:c', '02:AA:BB:CC:DD:EE', '2001:db8::20/64']);
  const s = parseConnSettings(loadCase('nm_connection', 'show-bridge').stdout);
  t.is(s['connection.stable-id'], 'a\\b:c');
  t.is(s['ipv4.addresses'], '192.0.2.20/24, 192.0.2.21/24');
  t.is(s['802-3-ethernet.cloned-mac-address'], '02:AA:BB:CC:DD:EE');
});

test('value comparison', (t) => {
  t.true(sameValue('192.0.2.20/24, 192.0.2.21/24', '192.0.2.20/24,192.0.2.21/24'));
  t.true(sameValue('02:AA:BB:CC:DD:EE', '02:aa:bb:cc:dd:ee'));
  t.true(sameValue('no', 'false'));
  t.false(sameValue('manual', 'auto'));
});

test('recorded probe: converged vxlan profile; drift modifies and re-activates', (t) => {
  const s = readNm(loadCase('nm_connection', 'probe-vxlan').stdout, 'hw-vx');
  t.like(s.conn, { type: 'vxlan', active: true });
  const want = { conn_name: 'hw-vx', type: 'vxlan', ifname: 'hwvx9', properties: { 'vxlan.id': 99, 'ipv4.method': 'manual', 'ipv4.addresses': ['192.0.2.30/24', '192.0.2.31/24'], 'connection.autoconnect': false }, state: 'up' };
  t.deepEqual(planNm(s, args(want)), []);
  const ch = planNm(s, args({ ...want, properties: { ...want.properties, 'ipv4.addresses': ['192.0.2.30/24'] } }));
  t.deepEqual(ch.map((c) => c.run[0]), [`nmcli connection modify ${s.conn!.uuid} ipv4.addresses 192.0.2.30/24`, 'nmcli connection up id hw-vx']);
  t.deepEqual(planNm(s, args({ conn_name: 'hw-vx', state: 'down' })).map((c) => c.run[0]), ['nmcli connection down id hw-vx']);
});

test('no such connection profile (recorded): created, in memory when not persistent', (t) => {
  t.regex(loadCase('nm_connection', 'show-missing').stderr!, /no such connection profile/);
  const s = readNm(loadCase('nm_connection', 'probe-missing').stdout, 'nope');
  t.is(s.conn, undefined);
  const [c] = planNm(s, args({ conn_name: 'nope', type: 'bridge', ifname: 'br9', properties: { 'ipv4.method': 'disabled' }, persistent: false }));
  t.is(c.run[0], 'nmcli connection add save no type bridge con-name nope ifname br9 ipv4.method disabled');
  t.throws(() => planNm(s, args({ conn_name: 'nope' })), { message: /no type was given/ });
});
