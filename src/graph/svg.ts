// `--format svg`: a hand-laid picture meant to be read at a glance. Nodes sit in a row; each box
// shows the node, its pod subnet, br-ex and uplink (and host-gw routes); arcs above the row are the
// host-gw routes or geneve tunnels between nodes; a bar below is the node network every uplink is
// on; the F5 hangs below it with its VIP towards the ramp nodes. A legend explains the colours.
import type { GraphModel, GraphNode } from './model.js';
import { headline } from './text.js';

const W = 230, GAP = 56, M = 40, FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif', MONO = 'DejaVu Sans Mono, Menlo, monospace';
const C = { hostgw: '#d08a00', geneve: '#7a4fbf', vip: '#c0392b', pods: '#2e9d4f', podsFill: '#e3f4e8', br: '#3b6fd8', brFill: '#e6eefc', line: '#4a5b6c', muted: '#6b7785' };
const HEAD: Record<GraphNode['role'], string> = { master: '#1f4e79', node: '#2d6a9f', microshift: '#1f4e79', ramp: '#9a6412' };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const text = (x: number, y: number, s: string, a: Record<string, string | number> = {}) =>
  `<text x="${x}" y="${y}"${Object.entries({ 'font-family': FONT, 'font-size': 13, fill: '#1d232a', ...a }).map(([k, v]) => ` ${k}="${v}"`).join('')}>${esc(s)}</text>`;

export function renderSvg(m: GraphModel): string {
  const n = m.nodes.length;
  const width = Math.max(820, 2 * M + n * W + Math.max(0, n - 1) * GAP);
  const x0 = (width - (n * W + Math.max(0, n - 1) * GAP)) / 2;
  const cx = (i: number) => x0 + i * (W + GAP) + W / 2;
  const index = new Map(m.nodes.map((node, i) => [node.name, i]));
  const maxSpan = Math.max(0, ...m.links.map((l) => Math.abs(index.get(l.a)! - index.get(l.b)!)));
  const arcH = (span: number) => 34 + 30 * (span - 1);
  const yBox = 78 + (m.links.length ? arcH(maxSpan) + 14 : 0);
  const hasBr = m.nodes.some((x) => x.brEx);
  const maxRoutes = Math.max(0, ...m.nodes.map((x) => x.routes.length));
  const H = 34 + 52 + (hasBr ? 40 : 0) + (maxRoutes ? 26 + 17 * maxRoutes : 0) + 40;
  const yBar = yBox + H + 44;
  const ramps = m.nodes.filter((x) => x.ramp);
  const yF5 = yBar + 46;
  const yLegend = (m.f5 ? yF5 + 70 : yBar + 40) + 20;
  const height = yLegend + 40 + (m.notes.length ? 18 * m.notes.length : 0);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(text(M - 10, 34, headline(m), { 'font-size': 19, 'font-weight': 'bold' }));

  // Links between nodes: arcs above the row (attached left/right of the box centre by direction).
  for (const l of m.links) {
    const [i, j] = [index.get(l.a)!, index.get(l.b)!].sort((a, b) => a - b) as [number, number];
    const h = arcH(j - i);
    const xa = cx(i) + 24, xb = cx(j) - 24;
    const color = l.kind === 'geneve' ? C.geneve : C.hostgw;
    out.push(`<path d="M ${xa} ${yBox} C ${xa} ${yBox - h * 1.33}, ${xb} ${yBox - h * 1.33}, ${xb} ${yBox}" fill="none" stroke="${color}" stroke-width="2.5"${l.kind === 'geneve' ? ' stroke-dasharray="8 5"' : ''}/>`);
    if (n <= 4) out.push(text((xa + xb) / 2, yBox - h - 6, l.kind === 'geneve' ? 'geneve tunnel' : 'host-gw routes', { 'font-size': 11, fill: color, 'text-anchor': 'middle' }));
  }

  // The node network (uplinks) as a bar below the row.
  out.push(`<line x1="${M - 10}" y1="${yBar}" x2="${width - M + 10}" y2="${yBar}" stroke="${C.line}" stroke-width="5" stroke-linecap="round"/>`);
  out.push(text(M - 10, yBar + 22, 'node network (uplinks)', { 'font-size': 12, fill: C.muted }));

  m.nodes.forEach((node, i) => out.push(nodeBox(node, x0 + i * (W + GAP), yBox, H, yBar, hasBr)));

  if (m.f5) {
    const targets = ramps.length ? ramps.map((r) => cx(index.get(r.name)!)) : [width / 2];
    const fx = Math.min(Math.max(targets.reduce((a, b) => a + b, 0) / targets.length, M + 110), width - M - 110);
    out.push(`<line x1="${fx}" y1="${yF5}" x2="${fx}" y2="${yBar}" stroke="${C.line}" stroke-width="2"/>`);
    out.push(`<rect x="${fx - 110}" y="${yF5}" width="220" height="54" rx="8" fill="#fbe7e5" stroke="${C.vip}" stroke-width="2"/>`);
    out.push(text(fx, yF5 + 22, 'F5 BIG-IP', { 'font-weight': 'bold', 'text-anchor': 'middle' }));
    out.push(text(fx, yF5 + 42, `VIP ${m.f5.vip}`, { 'text-anchor': 'middle', fill: C.vip, 'font-weight': 'bold' }));
    for (const r of ramps) {
      const rx = cx(index.get(r.name)!) + 40;
      out.push(`<path d="M ${fx + (rx > fx ? 60 : -60)} ${yF5} C ${fx + (rx > fx ? 60 : -60)} ${yBar - 10}, ${rx} ${yBar + 10}, ${rx} ${yBox + H}" fill="none" stroke="${C.vip}" stroke-width="2.5" stroke-dasharray="2 4" marker-end="url(#arrow)"/>`);
    }
    out.push(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="${C.vip}"/></marker></defs>`);
  }

  out.push(legend(m, M - 10, yLegend, hasBr));
  m.notes.forEach((note, k) => out.push(text(M - 10, yLegend + 40 + 18 * k, `note: ${note}`, { 'font-size': 11, fill: C.muted })));
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function nodeBox(node: GraphNode, x: number, y: number, H: number, yBar: number, hasBr: boolean): string {
  const o: string[] = [];
  const cx = x + W / 2;
  o.push(`<line x1="${cx}" y1="${y + H}" x2="${cx}" y2="${yBar}" stroke="${C.line}" stroke-width="2"/>`);
  o.push(`<rect x="${x}" y="${y}" width="${W}" height="${H}" rx="9" fill="#ffffff" stroke="${C.line}" stroke-width="1.5"/>`);
  o.push(`<path d="M ${x} ${y + 9} a 9 9 0 0 1 9 -9 h ${W - 18} a 9 9 0 0 1 9 9 v 25 h -${W} z" fill="${HEAD[node.role]}"/>`);
  o.push(text(x + 12, y + 23, node.name, { fill: '#ffffff', 'font-weight': 'bold', 'font-size': 15 }));
  o.push(text(x + W - 12, y + 23, node.ramp && node.role !== 'ramp' ? `${node.role} · F5 ramp` : node.role, { fill: '#dbe6f1', 'font-size': 11, 'text-anchor': 'end' }));
  let yy = y + 44;
  if (node.podSubnet) {
    o.push(`<rect x="${x + 10}" y="${yy}" width="${W - 20}" height="40" rx="6" fill="${C.podsFill}" stroke="${C.pods}" stroke-width="1.5"/>`);
    o.push(text(x + 20, yy + 17, 'pod subnet', { 'font-size': 11, fill: C.pods }));
    o.push(text(x + 20, yy + 33, node.podSubnet, { 'font-family': MONO, 'font-size': 13, 'font-weight': 'bold' }));
    if (node.subnetFrom === 'planned') o.push(text(x + W - 20, yy + 17, 'planned', { 'font-size': 10, fill: C.muted, 'font-style': 'italic', 'text-anchor': 'end' }));
  } else o.push(text(x + 20, yy + 25, node.role === 'ramp' ? 'no pods (ramp node)' : 'pod subnet unknown', { 'font-size': 12, fill: C.muted }));
  yy += 52;
  if (hasBr) {
    if (node.brEx) {
      o.push(`<rect x="${x + 10}" y="${yy}" width="${W - 20}" height="30" rx="6" fill="${C.brFill}" stroke="${C.br}" stroke-width="1.5"/>`);
      o.push(text(x + 20, yy + 20, node.brEx === 'uplink' ? `br-ex  ⟵ ${node.uplink || 'uplink NIC'}` : 'br-ex (no NIC)', { 'font-size': 12, fill: C.br, 'font-weight': 'bold' }));
    }
    yy += 40;
  }
  if (node.routes.length) {
    o.push(text(x + 12, yy + 12, 'routes', { 'font-size': 11, fill: C.hostgw }));
    node.routes.forEach((r, k) => o.push(text(x + 12, yy + 29 + 17 * k, `${r.to} via ${r.via}`, { 'font-family': MONO, 'font-size': 11 })));
  }
  o.push(`<rect x="${x + 1}" y="${y + H - 30}" width="${W - 2}" height="29" rx="0" fill="#eef1f4"/>`);
  o.push(text(x + 12, y + H - 11, `${node.uplink || 'uplink'}  ${node.address}${node.mtu ? `  mtu ${node.mtu}` : ''}`, { 'font-family': MONO, 'font-size': 12 }));
  return o.join('\n');
}

function legend(m: GraphModel, x: number, y: number, hasBr: boolean): string {
  const items: [string, string][] = [];
  const swatchLine = (color: string, dash = '') => `<line x1="0" y1="-4" x2="26" y2="-4" stroke="${color}" stroke-width="3"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
  const swatchBox = (fill: string, stroke: string) => `<rect x="0" y="-12" width="26" height="14" rx="3" fill="${fill}" stroke="${stroke}"/>`;
  if (m.links.some((l) => l.kind === 'host-gw')) items.push([swatchLine(C.hostgw), 'host-gw: routes to each other node\'s pods']);
  if (m.links.some((l) => l.kind === 'geneve')) items.push([swatchLine(C.geneve, '8 5'), 'geneve tunnel (OVN)']);
  items.push([swatchBox(C.podsFill, C.pods), 'pod subnet']);
  if (hasBr) items.push([swatchBox(C.brFill, C.br), 'OVS bridge br-ex']);
  if (m.f5) items.push([swatchLine(C.vip, '2 4'), 'F5 VIP traffic to ramp nodes']);
  let cx = x;
  const parts = items.map(([sw, label]) => {
    const g = `<g transform="translate(${cx} ${y})">${sw}${text(34, 0, label, { 'font-size': 12, fill: '#36414c' })}</g>`;
    cx += 46 + label.length * 7;
    return g;
  });
  return parts.join('\n');
}
