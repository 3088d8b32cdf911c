// The graph model from inventory vars, a subnet state snapshot and live facts; text, dot and SVG.
import test from 'ava';
import { buildGraph, renderDot, renderSvg, renderText, type GraphInput } from '../../src/graph/index.js';

const vars = { sdn: 'flannel-hostgw', cluster_network: '10.244.0.0/16', flannel_hostgw_subnet_len: 24, f5_vip: '10.0.0.100' };
const flannel: GraphInput = {
  hosts: [
    { name: 'node1', vars: { ...vars, ansible_host: '10.0.0.11' }, groups: ['masters', 'nodes', 'etcd'] },
    { name: 'node2', vars: { ...vars, ansible_host: '10.0.0.12' }, groups: ['nodes'] },
    { name: 'node3', vars: { ...vars, ansible_host: '10.0.0.13' }, groups: ['nodes'] },
    { name: 'ramp1', vars: { ...vars, ansible_host: '10.0.0.30' }, groups: ['f5_ramp'] },
  ],
  // node2's lease is found by public IP (etcd leases carry no node name); node3 has none yet.
  snapshot: { cursor: 0, leases: [{ subnet: '10.244.7.0/24', node: 'node1' }, { subnet: '10.244.1.0/24', public_ip: '10.0.0.12' }] },
};

test('flannel: subnets from the store, the rest planned around them, host-gw routes, F5 to ramp nodes', (t) => {
  const m = buildGraph(flannel);
  t.is(m.kind, 'flannel');
  t.deepEqual(m.nodes.map((n) => [n.name, n.role, n.podSubnet, n.subnetFrom]), [
    ['node1', 'master', '10.244.7.0/24', 'store'], ['node2', 'node', '10.244.1.0/24', 'store'], ['node3', 'node', '10.244.2.0/24', 'planned'], ['ramp1', 'ramp', undefined, undefined],
  ]);
  t.deepEqual(m.nodes[2]!.routes, [{ to: '10.244.7.0/24', via: '10.0.0.11', dev: 'uplink' }, { to: '10.244.1.0/24', via: '10.0.0.12', dev: 'uplink' }]);
  t.deepEqual(m.links.map((l) => `${l.a}-${l.b}:${l.kind}`), ['node1-node2:host-gw', 'node1-node3:host-gw', 'node2-node3:host-gw']);
  t.deepEqual(m.f5, { vip: '10.0.0.100', ramps: ['ramp1'] });
  const onNode = buildGraph({ hosts: flannel.hosts.slice(0, 3).map((h, i) => (i === 1 ? { ...h, groups: [...h.groups, 'f5_ramp'] } : h)) });
  t.like(onNode.nodes[1], { role: 'node', ramp: true, podSubnet: '10.244.2.0/24' });
  t.deepEqual(onNode.f5?.ramps, ['node2']);
  t.regex(renderText(onNode), /node2 \[node, F5 ramp\]/);
});

test('live facts give the uplink, MTU and br-ex (holding the uplink when it carries the default route)', (t) => {
  const m = buildGraph({
    hosts: [{ name: 'ms', vars: { microshift_cluster_network: '10.42.0.0/16', microshift_configure_ovs_mode: 'no_uplink', ansible_host: '192.0.2.5' }, groups: ['microshift'] }],
    facts: { ms: { ansible_default_ipv4: { interface: 'br-ex', address: '192.0.2.5', mtu: 1500 }, ansible_interfaces: ['lo', 'eth0', 'br-ex'] } },
  });
  t.is(m.kind, 'microshift');
  t.like(m.nodes[0], { role: 'microshift', uplink: 'br-ex', mtu: 1500, brEx: 'uplink', podSubnet: '10.42.0.0/16' });
  t.deepEqual(m.links, []);
  const noFacts = buildGraph({ hosts: [{ name: 'ms', vars: { microshift_cluster_network: '10.42.0.0/16' }, groups: ['microshift'] }] });
  t.is(noFacts.nodes[0]!.brEx, 'standalone', 'no_uplink is the default mode');
});

test('OVN: geneve tunnels between every pair of pod nodes, OpenShift-style planned subnets', (t) => {
  const hosts = ['a', 'b', 'c'].map((n, i) => ({ name: n, vars: { sdn: 'ovn', cluster_network: '10.128.0.0/14', pod_subnet_len: 23, ansible_host: `10.1.0.${i + 1}` }, groups: ['nodes'] }));
  const m = buildGraph({ hosts });
  t.deepEqual(m.links.map((l) => l.kind), ['geneve', 'geneve', 'geneve']);
  // OpenShift's allocator spreads subnets over a large network (src/sdn/openshift.ts).
  t.deepEqual(m.nodes.map((n) => n.podSubnet), ['10.128.0.0/23', '10.129.0.0/23', '10.130.0.0/23']);
  t.regex(renderDot(m), /"a" -- "b" \[label="geneve", style=dashed/);
});

test('text and SVG carry the same facts', (t) => {
  const m = buildGraph(flannel);
  const txt = renderText(m);
  t.regex(txt, /^flannel host-gw cluster · cluster network 10\.244\.0\.0\/16 · \/24 per node\n/);
  t.regex(txt, /node3 \[node\]  10\.0\.0\.13\n  pods 10\.244\.2\.0\/24 \(planned\)\n  route 10\.244\.7\.0\/24 via 10\.0\.0\.11 dev uplink/);
  t.regex(txt, /F5 VIP 10\.0\.0\.100 -> ramp1/);
  const svg = renderSvg(m);
  t.regex(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  t.is(svg.match(/<path d="M [\d.]+ [\d.]+ C [^"]*" fill="none" stroke="#d08a00"/g)?.length, 3, 'one arc per pair');
  for (const s of ['10.244.7.0/24', '10.244.2.0/24', 'VIP 10.0.0.100', 'ramp1', 'host-gw: routes to each other node&#39;s pods'.replace('&#39;', "'")]) t.true(svg.includes(s), s);
});
