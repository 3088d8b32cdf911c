import test from 'ava';
import { ipLinkModule, planLink, readLinks, type IpLinkArgs } from '../../src/modules/ip_link/ip_link.js';
import { parseLinks } from '../../src/modules/ip_link/parse.js';
import { splitSections } from '../../src/probe/sections.js';
import { loadCase, asSection } from './net-cases.js';

const args = (a: Record<string, unknown>) => ipLinkModule.args.parse(a) as IpLinkArgs;

test('parses ip -j -d link show: kinds, mtu, flags, peers, vxlan data', (t) => {
  const links = parseLinks(loadCase('ip_link', 'links').stdout);
  t.deepEqual([...links.keys()], ['lo', 'eth0', 'br-t1', 'vx-t1', 'vt1b', 'vt1a', 'mv-t1']);
  t.like(links.get('br-t1'), { kind: 'bridge', mtu: 1400, up: true });
  t.like(links.get('vx-t1'), { kind: 'vxlan', up: false, link: 'eth0' });
  t.is(links.get('vx-t1')!.data.id, 42);
  t.is(links.get('vt1a')!.link, 'vt1b');
  t.like(links.get('mv-t1'), { kind: 'macvlan', link: 'eth0' });
});

test('recorded probe: existing vxlan matches, no change', (t) => {
  const c = loadCase('ip_link', 'probe-vxlan');
  const a = args(c.args!);
  t.is(ipLinkModule.probe!(a, { host: 'h', vars: {} }).command, c.command);
  t.deepEqual(planLink(readLinks(c.stdout), a), []);
});

test('drift: mtu and down are fixed in place, a new vxlan id recreates the link', (t) => {
  const links = readLinks(loadCase('ip_link', 'probe-vxlan').stdout);
  const c1 = planLink(links, args({ name: 'hwvx', kind: 'vxlan', parameters: { id: 7, remote: '192.0.2.7', dev: 'eth0' }, mtu: 1300 }));
  t.deepEqual(c1[0].run, ['ip link set dev hwvx mtu 1300']);
  const c2 = planLink(links, args({ name: 'hwvx', kind: 'vxlan', parameters: { id: 8, remote: '192.0.2.7', dev: 'eth0' } }));
  t.regex(c2[0].summary, /recreate link hwvx \(vxlan id 7 -> 8\)/);
  t.is(c2[0].run[0], 'ip link del dev hwvx');
  t.deepEqual(planLink(links, args({ name: 'hwvx', state: 'absent' }))[0].run, ['ip link del dev hwvx']);
  t.deepEqual(planLink(links, args({ name: 'nope', state: 'absent' })), []);
});

test('creating ipip maps the kernel error (recorded) to "kernel lacks ipip"', (t) => {
  const rec = loadCase('ip_link', 'create-ipip');
  t.regex(rec.stderr!, /Unknown device type/);
  const [c] = planLink(new Map(), args({ name: 'tun0', kind: 'ipip', parameters: { remote: '192.0.2.2' } }));
  t.regex(c.run[0], /ip link add name tun0 type ipip remote 192\.0\.2\.2/);
  t.regex(c.run[0], /kernel lacks ipip/);
  t.regex(c.run[0], /\*"Unknown device type"\*/);
});

test('schema: vxlan needs an id; unknown args fail', (t) => {
  t.false(ipLinkModule.args.safeParse({ name: 'v', kind: 'vxlan' }).success);
  t.false(ipLinkModule.args.safeParse({ name: 'v', kind: 'bridge', colour: 1 }).success);
});

test('sections: missing tool and section split', (t) => {
  const { sections, missing } = splitSections(`::missing ovs-vsctl\n${asSection('a', { command: '', rc: 3, stdout: 'x\ny' })}`);
  t.deepEqual(missing, ['ovs-vsctl']);
  t.deepEqual(sections.get('a'), { out: 'x\ny', rc: 3 });
  t.throws(() => readLinks('::missing ip\n'), { message: /ip not found on the host: install the package iproute2/ });
});
