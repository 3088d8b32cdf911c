// `--format text` and `--format dot` of the cluster graph.
import type { GraphModel, GraphNode } from './model.js';

export const KIND_TITLE = { flannel: 'flannel host-gw cluster', ovn: 'OVN cluster', microshift: 'MicroShift single node', unknown: 'cluster' } as const;

export function headline(m: GraphModel): string {
  const parts: string[] = [KIND_TITLE[m.kind]];
  if (m.network) parts.push(`cluster network ${m.network}`);
  if (m.subnetLen && m.kind !== 'microshift') parts.push(`/${m.subnetLen} per node`);
  return parts.join(' · ');
}

const brExText = (n: GraphNode) => (n.brEx === 'uplink' ? `br-ex (holds ${n.uplink || 'the uplink'})` : n.brEx === 'standalone' ? 'br-ex (no NIC)' : undefined);

export function renderText(m: GraphModel): string {
  const out = [headline(m), ''];
  for (const n of m.nodes) {
    out.push(`${n.name} [${n.role}${n.ramp && n.role !== 'ramp' ? ', F5 ramp' : ''}]  ${n.address}${n.uplink ? ` on ${n.uplink}` : ''}${n.mtu ? ` mtu ${n.mtu}` : ''}`);
    const br = brExText(n);
    if (br) out.push(`  ${br}`);
    if (n.podSubnet) out.push(`  pods ${n.podSubnet}${n.subnetFrom === 'planned' ? ' (planned)' : ''}`);
    for (const r of n.routes) out.push(`  route ${r.to} via ${r.via} dev ${r.dev}`);
  }
  if (m.links.length) {
    out.push('', m.links[0]!.kind === 'geneve' ? 'geneve tunnels:' : 'host-gw routes between:');
    for (const l of m.links) out.push(`  ${l.a} <-> ${l.b}`);
  }
  if (m.f5) out.push('', `F5 VIP ${m.f5.vip} -> ${m.f5.ramps.join(', ') || '(no ramp nodes)'}`);
  for (const n of m.notes) out.push(`note: ${n}`);
  return out.join('\n') + '\n';
}

const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

export function renderDot(m: GraphModel): string {
  const out = ['graph cluster {', `  label=${q(headline(m))}; labelloc=t; fontname="Helvetica";`, '  node [shape=box, style="rounded,filled", fontname="Helvetica", fillcolor="#eef3f8"];'];
  for (const n of m.nodes) {
    const lines = [`${n.name} (${n.role})`, `${n.uplink || 'uplink'} ${n.address}`, brExText(n), n.podSubnet ? `pods ${n.podSubnet}` : undefined].filter(Boolean);
    out.push(`  ${q(n.name)} [label=${q(lines.join('\n'))}${n.role === 'ramp' ? ', fillcolor="#f3ece1"' : ''}];`);
  }
  for (const l of m.links) out.push(`  ${q(l.a)} -- ${q(l.b)} [label=${q(l.kind)}${l.kind === 'geneve' ? ', style=dashed, color="#7a4fbf"' : ', color="#d08a00"'}];`);
  if (m.f5) {
    out.push(`  "f5" [label=${q(`F5 BIG-IP\nVIP ${m.f5.vip}`)}, fillcolor="#fbe3e3"];`);
    for (const r of m.f5.ramps) out.push(`  "f5" -- ${q(r)} [label="VIP", color="#c0392b"];`);
  }
  out.push('}');
  return out.join('\n') + '\n';
}
