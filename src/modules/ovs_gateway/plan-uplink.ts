// Pure plan for mode=uplink: the script and boot unit (plain writes), the hint write-back, and the
// disruptive part as ONE transaction (apply:<bridge> / remove:<bridge> actions) that the host runs
// detached under the commit-confirmed rule (see commit.ts).
import { createHash } from 'node:crypto';
import { HostwireError } from '../../errors.js';
import type { Change } from '../types.js';
import type { OvsGatewayArgs } from './args.js';
import { chooseUplink } from './choose-uplink.js';
import { desiredEnv, driftOf, envPath } from './desired.js';
import { renderEnv, renderPrev, type BridgeEnv, type UplinkConfig } from './env.js';
import { planNmProfiles } from './nm-profiles.js';
import { assertNmUplinkShape } from './nm-uplink-shape.js';
import type { GatewayState } from './parse.js';
import { HINT_FILES } from './probe.js';
import { BOOT_UNIT, BOOT_UNIT_PATH, BOOT_UNIT_TEXT, SCRIPT, SCRIPT_PATH } from './script/index.js';
import { prevPath, uplinkConfig } from './uplink-config.js';
import { planPending } from './plan-pending.js';
import { assertBridgeName, assertDeviceNames, assertOneUplink, assertRemoteTargets, assertUplink } from './validate.js';
import { assertUplinkCarrier } from './uplink-device.js';
import { assertFailoverAnnounced } from './silent-failover.js';
import { resolveDatapath } from './datapath.js';


export interface TxnAction {
  verb: 'apply' | 'remove';
  bridge: string;
  /** Staged files for apply: the env, the prev (first move only), the NM commands (nm backend). */
  env?: string;
  prev?: string;
  nm?: string;
}

/** A change the host applies inside the commit-confirmed transaction. */
export type TxnChange = Change & { txn: TxnAction };
export const isTxnChange = (c: Change): c is TxnChange => 'txn' in c;

export function chooseBackend(s: GatewayState, a: OvsGatewayArgs): 'ovs' | 'nm' {
  if (a.backend !== 'auto') return a.backend;
  return s.nm.running && s.nm.ovsPlugin ? 'nm' : 'ovs';
}

const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');

function bridgeChange(s: GatewayState, u: { config: UplinkConfig; moved: boolean }, e: BridgeEnv, primary: boolean): TxnChange[] {
  assertDeviceNames(u.config);
  const drift = driftOf(s, e);
  if (drift.length === 0) return [];
  if (e.backend === 'nm') assertNmUplinkShape(u.config, u.moved ? undefined : s);
  if (e.backend === 'nm' && u.config.ifupdown && !u.moved) {
    throw new HostwireError('command-failed', `ovs_gateway: ${e.uplink}'s DHCP lease is ifupdown's dhclient's; the nm backend does not take it over (NetworkManager's profiles would run a second client): use configure_ovs_backend: ovs`);
  }
  const device = u.config.device;
  if (device && device.kind !== 'nic' && !u.moved) assertUplinkCarrier(s, e.uplink, device);
  if (!u.moved) assertFailoverAnnounced(s, u.config, e.backend);
  if (e.backend === 'nm' && !u.moved) u = { ...u, config: withNmUnmanaged(s, u.config) };
  const before = s.files[envPath(e.bridge)] ?? `${e.uplink}: ${u.config.method} ${u.config.addrs.join(' ')} mtu ${u.config.mtu} mac ${u.config.mac}\n`;
  return [{
    summary: `${u.moved ? 're-apply' : 'move'} ${e.uplink} into ${e.bridge} (${drift.join(', ')})`,
    before, after: renderEnv(e), run: [],
    disruptive: `moves ${e.uplink}'s addresses onto ${e.bridge}: the host's connectivity (the SSH session too) blinks, and stays cut if the move goes wrong`,
    txn: { verb: 'apply', bridge: e.bridge, env: renderEnv(e), ...(u.moved ? {} : { prev: renderPrev(u.config) }), ...(e.backend === 'nm' ? { nm: planNmProfiles(u.config, e, primary).join('\n') + '\n' } : {}) },
  }];
}

/** The uplink's devices NM left unmanaged before the move (a kernel-made bond's ports): unmanaged again on rollback. */
function withNmUnmanaged(s: GatewayState, c: UplinkConfig): UplinkConfig {
  const d = c.device;
  const devices = [c.iface, ...(d?.kind === 'bond' ? d.members : d?.kind === 'vlan' ? [d.parent, ...(d.parentBond?.members ?? [])] : [])];
  const off = devices.filter((n) => s.nm.devices.some((x) => x.device === n && x.state === 'unmanaged'));
  return off.length ? { ...c, nmUnmanaged: off } : c;
}

export function planUplink(s: GatewayState, asked: OvsGatewayArgs): Change[] {
  const a = resolveDatapath(s.ovsKernel, asked);
  if (s.ovsError) throw new HostwireError('command-failed', `Open vSwitch is not running (start openvswitch-switch / openvswitch): ${s.ovsError}`);
  assertBridgeName(s, a.bridge, 'bridge');
  assertBridgeName(s, a.extra_bridge, 'extra_bridge');
  assertRemoteTargets(s, a);
  const backend = chooseBackend(s, a);
  const changes: Change[] = [];
  if (s.scriptSha !== sha256(SCRIPT)) changes.push({ summary: `install ${SCRIPT_PATH}`, run: [], write: { path: SCRIPT_PATH, content: SCRIPT, mode: '0755' } });
  if (s.files[BOOT_UNIT_PATH] !== BOOT_UNIT_TEXT) changes.push({ summary: `install ${BOOT_UNIT}`, run: ['systemctl daemon-reload'], write: { path: BOOT_UNIT_PATH, content: BOOT_UNIT_TEXT, mode: '0644' } });
  if (!s.bootUnitEnabled) changes.push({ summary: `enable ${BOOT_UNIT}`, run: [`systemctl enable ${BOOT_UNIT} 2>&1`] });

  const choice = chooseUplink(s, { forced: a.uplink, nodeIp: a.node_ip, bridge: a.bridge, extraBridge: a.extra_bridge });
  if (!choice.iface) throw new HostwireError('command-failed', `cannot choose the uplink for ${a.bridge}: ${choice.reason}`);
  assertUplink(s, a, choice.iface);
  assertOneUplink(s, a.bridge, choice.iface, choice.reason);
  if (s.files[HINT_FILES.ifaceHint]?.trim() !== choice.iface) {
    changes.push({ summary: `record ${choice.iface} in ${HINT_FILES.ifaceHint}`, before: s.files[HINT_FILES.ifaceHint] ?? '', after: `${choice.iface}\n`, run: [], write: { path: HINT_FILES.ifaceHint, content: `${choice.iface}\n`, mode: '0644' } });
  }
  const main = uplinkConfig(s, choice.iface, a.bridge);
  changes.push(...bridgeChange(s, main, desiredEnv(main.config, a, a.bridge, a.metric, backend, true), true));

  const extraNic = s.files[HINT_FILES.extraBridge]?.trim();
  if (extraNic) {
    if (extraNic === choice.iface) throw new HostwireError('bad-input', `${HINT_FILES.extraBridge} names ${extraNic}, the uplink of ${a.bridge}`);
    assertUplink(s, { ...a, mtu: undefined }, extraNic);
    assertOneUplink(s, a.extra_bridge, extraNic, HINT_FILES.extraBridge);
    const extra = uplinkConfig(s, extraNic, a.extra_bridge);
    changes.push(...bridgeChange(s, extra, desiredEnv(extra.config, a, a.extra_bridge, a.extra_metric, backend, false), false));
  } else if (s.files[envPath(a.extra_bridge)] !== undefined || s.bridges.some((b) => b.name === a.extra_bridge)) {
    if (s.files[prevPath(a.extra_bridge)] === undefined) {
      changes.push({ summary: `delete ${a.extra_bridge} (${HINT_FILES.extraBridge} is gone; no saved NIC configuration)`, run: [`ovs-vsctl --timeout=10 --if-exists del-br ${a.extra_bridge}`, `rm -f ${envPath(a.extra_bridge)}`] });
    } else {
      changes.push({ summary: `remove ${a.extra_bridge} and restore its NIC (${HINT_FILES.extraBridge} is gone)`, disruptive: `moves the NIC's addresses back off ${a.extra_bridge}: its traffic blinks`, before: s.files[envPath(a.extra_bridge)] ?? '', after: 'absent\n', run: [], txn: { verb: 'remove', bridge: a.extra_bridge } } as TxnChange);
    }
  }
  return planPending(s.pending, changes);
}
