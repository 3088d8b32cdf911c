// Host state with odd bytes (issue 18), from real outputs recorded on a lab host by
// test/facts/record-hostile-fixtures.ts: an interface "h6\x01x", a bridge `h6"q` with a default route,
// an iptables comment holding a newline and a chain `h6"c`, a NetworkManager connection "h6\nnm".
// Each is read whole; what cannot be read is named.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { assembleFacts } from '../../src/facts/gather.js';
import { splitBatch } from '../../src/probe/batch.js';
import { escapeControlsInStrings, parseToolJson } from '../../src/probe/tool-json.js';
import { parseLinks } from '../../src/modules/ip_link/parse.js';
import { parseRoutes } from '../../src/modules/kit/ip-routes.js';
import { parseRules } from '../../src/modules/iptables/parse.js';
import { parseConnList, parseConnSettings } from '../../src/modules/nm_connection/parse.js';
import { readNm } from '../../src/modules/nm_connection/nm_connection.js';
import { loadCase } from '../modules/net-cases.js';

const batch = readFileSync(new URL('../../../test/facts/fixtures/hostile-names.batch.txt', import.meta.url), 'utf8');

test('facts: an interface name with a control byte no longer loses every interface and the default route', (t) => {
  t.true(batch.includes('"ifname":"h6\x01x"'), 'the recorded ip -j output holds the raw byte');
  const f = assembleFacts(splitBatch(batch));
  t.deepEqual(f.hostwire_fact_errors, []);
  t.true(f.ansible_interfaces.includes('h6\x01x'));
  t.true(f.ansible_interfaces.includes('h6"q'));
  t.like(f.ansible_default_ipv4, { interface: 'eth0', netmask: '255.255.255.0' });
  t.regex(String((f.ansible_default_ipv4 as { address?: string }).address), /^10\.\d+\.\d+\.11$/);
  t.true(f.ansible_all_ipv4_addresses.includes('192.0.2.7'));
  t.deepEqual(f.hostwire_interfaces['h6"q'].ipv4.map((a) => a.address), ['192.0.2.7']);
});

test('ip_link / ip_route parsers read the same names', (t) => {
  const links = parseLinks(loadCase('ip_link', 'links-hostile').stdout);
  t.true(links.has('h6\x01x'));
  t.like(links.get('h6"q'), { kind: 'bridge', up: true });
  const routes = parseRoutes(loadCase('ip_route', 'routes-hostile').stdout, 4);
  t.true(routes.some((r) => r.dst === '0.0.0.0/0' && r.dev === 'h6"q' && r.metric === 500));
});

test('tool JSON: raw control characters are escaped only inside strings; what stays unreadable is named', (t) => {
  t.is(escapeControlsInStrings('[{"a":"x\x01\ny","b":"q\\"\x02"}]\n'), '[{"a":"x\\u0001\\u000ay","b":"q\\"\\u0002"}]\n');
  t.deepEqual(parseToolJson('[{"ifname":"a\tb"}]', 'ip -j link'), [{ ifname: 'a\tb' }]);
  const cut = '[{"ifname":"eth0","mtu":1500},{"ifname":"br0","mtu":15';
  const e = t.throws(() => parseToolJson(cut, 'ip -j addr', ['ifname']));
  t.regex(e!.message, /^cannot parse ip -j addr output as JSON \(the entry after ifname "br0" is unreadable\)/);
});

test('iptables -S: a comment with a newline, quotes and backslashes, a chain named h6"c', (t) => {
  const rules = parseRules(loadCase('iptables', 'list-hostile').stdout, 'H6');
  t.deepEqual(rules.map((r) => r.comment), ['line1\nline2', 'say "hi" \\ there', undefined]);
  t.deepEqual(rules[0].spec, ['-s', '10.0.0.1/32', '-m', 'comment', '--comment', 'line1\nline2', '-j', 'ACCEPT']);
  t.deepEqual(rules[2].spec, ['-j', 'h6"c']);
  t.deepEqual(parseRules(loadCase('iptables', 'list-quote-chain').stdout, 'h6"c').map((r) => r.spec), [['-j', 'RETURN']]);
  const e = t.throws(() => parseRules('-N X\n-A X -m comment --comment "open\n-A X -j DROP\n', 'X'));
  t.regex(e!.message, /^iptables -S X: the rule on line 2 is unreadable \(a quote that does not close as iptables quotes\): "-A X -m comment --comment \\"open"/);
});

test('nmcli list: a connection named with a newline is one entry (records start at a UUID)', (t) => {
  const list = parseConnList(loadCase('nm_connection', 'list-hostile').stdout);
  t.deepEqual(list.map((c) => c.name), ['eth0', 'lo', 'h6"q', 'Wired connection 1', 'h6\nnm']);
  t.like(list[4], { type: 'bridge', active: false, filename: '/etc/NetworkManager/system-connections/h6\nnm.nmconnection' });
  const e = t.throws(() => parseConnList('9f502734-ba57-483a-8d76-479ef8825c89:bridge:x\n'));
  t.regex(e!.message, /nmcli connection list: the entry "9f502734-ba57-483a-8d76-479ef8825c89:bridge:x" is unreadable \(expected 7 fields, got 3\)/);
});

test('nmcli show: a value holding a newline is read whole; a forged property line makes the profile unreadable, not misread', (t) => {
  // Recorded: proxy.pac-script = 'function ...\nipv4.method:disabled' on a profile whose ipv4.method is manual.
  const e = t.throws(() => readNm(loadCase('nm_connection', 'probe-pac-newline').stdout, 'h6pac'));
  t.regex(e!.message, /^nmcli connection show h6pac: property ipv4\.method is printed twice .*unreadable$/);
  const s = parseConnSettings('ipv4.method:manual\nproxy.pac-script:function f() {\n\n  return "DIRECT";\n}\n');
  t.deepEqual(s, { 'ipv4.method': 'manual', 'proxy.pac-script': 'function f() {\n\n  return "DIRECT";\n}' });
});
