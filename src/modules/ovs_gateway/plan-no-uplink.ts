// Pure plan for mode=no_uplink (MicroShift's configure-ovs today): br-ex alone, with bridge-id,
// fail-mode standalone, a fixed MAC, the datapath type asked for, and NetworkManager told to
// leave it alone (runtime `nmcli device set br-ex managed no`, as MicroShift does).
import { createHash } from 'node:crypto';
import { HostwireError } from '../../errors.js';
import { shellJoin } from '../../transports/quote.js';
import type { Change } from '../types.js';
import type { OvsGatewayArgs } from './args.js';
import type { GatewayState } from './parse.js';
import { resolveDatapath } from './datapath.js';

/** A stable, locally administered unicast MAC from the machine-id and the bridge name. */
export function machineMac(machineId: string, bridge: string): string {
  const h = createHash('sha256').update(`hostwire:${bridge}:${machineId}`).digest();
  return ['02', ...[...h.subarray(0, 5)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

export function planNoUplink(s: GatewayState, asked: OvsGatewayArgs): Change[] {
  const a = resolveDatapath(s.ovsKernel, asked);
  if (s.ovsError) throw new HostwireError('command-failed', `Open vSwitch is not running (start openvswitch-switch / openvswitch): ${s.ovsError}`);
  if (!a.mac && !/^[0-9a-f]{32}$/.test(s.machineId)) throw new HostwireError('command-failed', `cannot derive ${a.bridge}'s MAC: /etc/machine-id is empty or invalid (set configure_ovs_bridge_mac)`);
  const mac = (a.mac ?? machineMac(s.machineId, a.bridge)).toLowerCase();
  const br = s.bridges.find((b) => b.name === a.bridge);
  const want: Record<string, string> = { datapath_type: a.datapath_type, fail_mode: 'standalone', 'other_config:hwaddr': mac, 'external_ids:bridge-id': a.bridge };
  const have: Record<string, string> = br ? { datapath_type: br.datapathType, fail_mode: br.failMode || 'standalone', 'other_config:hwaddr': br.otherConfig.hwaddr ?? '', 'external_ids:bridge-id': br.externalIds['bridge-id'] ?? '' } : {};
  const sets = Object.entries(want).filter(([k, v]) => have[k] !== v).map(([k, v]) => `${k}=${k.includes(':') ? JSON.stringify(v) : v}`);
  const show = (m: Record<string, string>) => Object.entries(m).map(([k, v]) => `${k}=${v}`).join('\n') + '\n';
  const changes: Change[] = [];
  if (!br || sets.length) {
    changes.push({
      summary: br ? `update OVS bridge ${a.bridge}: ${sets.join(' ')}` : `create OVS bridge ${a.bridge} (no uplink, MAC ${mac})`,
      before: br ? show(have) : 'absent\n', after: show(want),
      run: [shellJoin(['ovs-vsctl', '--timeout=10', '--may-exist', 'add-br', a.bridge, '--', 'set', 'bridge', a.bridge, ...sets])],
    });
  }
  const nmDev = s.nm.devices.find((d) => d.device === a.bridge);
  if (a.nm_unmanaged && s.nm.running && nmDev?.state !== 'unmanaged') {
    // A new bridge's device shows up in NM a moment after add-br.
    changes.push({ summary: `NetworkManager: leave ${a.bridge} unmanaged`, run: [`i=0; until nmcli device set ${shellJoin([a.bridge])} managed no 2>/dev/null; do i=$((i+1)); [ $i -lt 50 ] || { echo 'NetworkManager does not see ${a.bridge}' >&2; exit 1; }; sleep 0.1; done`] });
  }
  return changes;
}
