// Which NIC becomes br-ex's uplink, in MCO configure-ovs.sh's order: /etc/ovnk/default_bridge;
// the interface holding the node IP hint; else the device of the default route (v4, then v6),
// never br-ex1 or the extra_bridge NIC. When that device is br-ex itself (already moved), its
// physical port is the answer. A valid /var/lib/ovnk/iface_default_hint (non-empty, not
// br-ex/br-ex1, an existing device with a default route) wins over the route's device.
import { parseEnvText } from './env.js';
import { HINT_FILES } from './probe.js';
import { ETC_DIR } from './script/index.js';
import type { GatewayState } from './parse.js';

export interface UplinkChoice {
  iface?: string;
  /** Which rule chose it (for messages and tests). */
  reason: string;
}

export interface ChooseOptions {
  /** A forced uplink (the role's configure_ovs_uplink). */
  forced?: string;
  /** The node IP hint given as a variable (overrides /run/nodeip-configuration/primary-ip). */
  nodeIp?: string;
  bridge: string;
  extraBridge: string;
}

const fileValue = (s: GatewayState, path: string) => s.files[path]?.trim() || undefined;

/**
 * The physical (system-type) port of an OVS bridge, if it has exactly one we can use. ovs-vsctl leaves a
 * system interface's type empty; NetworkManager's OVS plugin writes it out as "system" (recorded on a VM).
 */
export function physicalPort(s: GatewayState, bridge: string): string | undefined {
  const br = s.bridges.find((b) => b.name === bridge);
  return br?.ports.find((p) => ['', 'system'].includes(s.ovsIfTypes[p] ?? '') && p !== bridge);
}

const linkExists = (s: GatewayState, name: string) => s.links.some((l) => l.name === name);
const hasDefaultRoute = (s: GatewayState, dev: string) => s.routes.some((r) => r.dst === 'default' && r.dev === dev);

/**
 * A moved host that lost its default route (the drift to repair) still names its uplink: the
 * bridge's saved env (UPLINK=), else the hint file, when that NIC is still the bridge's port.
 */
function recordedUplink(s: GatewayState, o: ChooseOptions): UplinkChoice | undefined {
  const env = s.files[`${ETC_DIR}/${o.bridge}.env`];
  const saved = env ? parseEnvText(env).UPLINK : undefined;
  const ports = s.bridges.find((b) => b.name === o.bridge)?.ports ?? [];
  if (saved && ports.includes(saved)) return { iface: saved, reason: `recorded in ${o.bridge}.env (no default route)` };
  const hint = fileValue(s, HINT_FILES.ifaceHint);
  if (hint && ports.includes(hint)) return { iface: hint, reason: `${HINT_FILES.ifaceHint} (no default route)` };
  return undefined;
}

export function chooseUplink(s: GatewayState, o: ChooseOptions): UplinkChoice {
  if (o.forced) return { iface: o.forced, reason: 'configure_ovs_uplink' };
  const extraNic = fileValue(s, HINT_FILES.extraBridge);
  const excluded = new Set([o.extraBridge, ...(extraNic ? [extraNic] : [])]);
  // An interface holding a bridge's address stands for the bridge's physical port.
  const resolve = (dev: string): string | undefined => (dev === o.bridge ? physicalPort(s, o.bridge) ?? fileValue(s, HINT_FILES.ifaceHint) : dev);

  const defBridge = fileValue(s, HINT_FILES.defaultBridge);
  if (defBridge && (linkExists(s, defBridge) || defBridge === physicalPort(s, o.bridge))) return { iface: defBridge, reason: HINT_FILES.defaultBridge };

  const nodeIp = o.nodeIp ?? fileValue(s, HINT_FILES.nodeIp);
  if (nodeIp) {
    const holder = s.links.find((l) => l.addrs.some((a) => a.local === nodeIp));
    const iface = holder && !excluded.has(holder.name) ? resolve(holder.name) : undefined;
    if (iface) return { iface, reason: `node IP ${nodeIp}` };
  }

  const defaults = [4, 6].flatMap((f) => s.routes.filter((r) => r.family === f && r.dst === 'default' && r.dev && !excluded.has(r.dev)))
    .sort((a, b) => a.family - b.family || (a.metric ?? 0) - (b.metric ?? 0));
  const routeDev = defaults[0]?.dev;
  if (!routeDev) return recordedUplink(s, o) ?? { reason: 'no default route (v4 or v6) outside the extra bridge' };
  if (routeDev === o.bridge) {
    const iface = resolve(routeDev);
    return iface ? { iface, reason: `default route on ${o.bridge}, its port` } : { reason: `default route on ${o.bridge} but it has no physical port` };
  }
  const hint = fileValue(s, HINT_FILES.ifaceHint);
  if (hint && hint !== routeDev && hint !== o.bridge && hint !== o.extraBridge && linkExists(s, hint) && hasDefaultRoute(s, hint)) {
    return { iface: hint, reason: HINT_FILES.ifaceHint };
  }
  return { iface: routeDev, reason: 'default route' };
}
