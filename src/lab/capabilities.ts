// What the machine's kernel can do, probed once per lab inside the lab namespace (throw-away links),
// so tests can skip by name: "skipped: kernel lacks ipip".
import { readdir } from 'node:fs/promises';
import { run } from './run.js';
import type { LabCapabilities } from './state.js';

export const LINK_KINDS: Record<string, string[]> = {
  ipip: ['type', 'ipip', 'remote', '192.0.2.2', 'local', '192.0.2.1'],
  gre: ['type', 'gre', 'remote', '192.0.2.2', 'local', '192.0.2.1'],
  sit: ['type', 'sit', 'remote', '192.0.2.2', 'local', '192.0.2.1'],
  vlan: ['link', 'hwcap0', 'type', 'vlan', 'id', '10'],
  dummy: ['type', 'dummy'],
  geneve: ['type', 'geneve', 'id', '5', 'remote', '192.0.2.2'],
  vxlan: ['type', 'vxlan', 'id', '5', 'dstport', '4789', 'remote', '192.0.2.2'],
  macvlan: ['link', 'hwcap0', 'type', 'macvlan'],
  wireguard: ['type', 'wireguard'],
};

export async function probeCapabilities(netns: string, rootfs: string): Promise<LabCapabilities> {
  const caps: LabCapabilities = {};
  const ip = (args: string[]) => run('ip', ['-n', netns, ...args], { check: false });
  // A parent for vlan/macvlan; removed with its children below.
  await ip(['link', 'add', 'hwcap0', 'type', 'veth', 'peer', 'name', 'hwcap1']);
  for (const [kind, args] of Object.entries(LINK_KINDS)) {
    const r = await ip(['link', 'add', `hwcap-${kind}`, ...args]);
    caps[kind] = r.code === 0;
    if (caps[kind]) await ip(['link', 'del', `hwcap-${kind}`]);
  }
  await ip(['link', 'del', 'hwcap0']);
  // Kernel OVS datapath: its generic netlink family exists only with the openvswitch module.
  caps.openvswitch = (await run('ip', ['netns', 'exec', netns, 'genl', 'ctrl', 'get', 'name', 'ovs_datapath'], { check: false })).code === 0;
  caps.nm_ovs_plugin = await hasNmOvsPlugin(rootfs);
  return caps;
}

export const NM_PLUGIN_DIR = '/usr/lib/x86_64-linux-gnu/NetworkManager';

/** Debian's NetworkManager ships no OVS device plugin; look for it rather than assume. */
async function hasNmOvsPlugin(rootfs: string): Promise<boolean> {
  const base = `${rootfs}${NM_PLUGIN_DIR}`;
  for (const v of await readdir(base).catch(() => [] as string[])) {
    const files = await readdir(`${base}/${v}`).catch(() => [] as string[]);
    if (files.some((f) => f.includes('device-plugin-ovs'))) return true;
  }
  return false;
}
