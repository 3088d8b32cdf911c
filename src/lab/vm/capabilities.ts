// A VM host's own kernel capabilities, read inside it once it is up. The lab-wide probe (capabilities.ts)
// creates throw-away links because the machine's kernel cannot load modules; a VM's kernel loads them on
// demand, so a capability is its module (or built-in) being there: `modprobe -n` asks without loading,
// which under emulation saves ~1-2 s per module. test/lab/vm.test.ts creates a real ipip link.
import { LINK_KINDS, NM_PLUGIN_DIR } from '../capabilities.js';
import { vmExec } from './exec.js';
import type { HostState, LabCapabilities, LabState } from '../state.js';

/** Kernel module behind each capability (same names as the lab-wide probe). */
export const KIND_MODULES: Record<string, string> = {
  ipip: 'ipip', gre: 'ip_gre', sit: 'sit', vlan: '8021q', dummy: 'dummy', geneve: 'geneve', vxlan: 'vxlan',
  macvlan: 'macvlan', wireguard: 'wireguard', openvswitch: 'openvswitch',
};

/** One shell script printing `kind=1|0` per capability; stdout only. */
export function capabilityScript(): string {
  const kinds = [...new Set([...Object.keys(LINK_KINDS), 'openvswitch'])];
  const lines = kinds.map((k) => `if modprobe -n -q ${KIND_MODULES[k] ?? k}; then echo ${k}=1; else echo ${k}=0; fi`);
  lines.push(`if ls ${NM_PLUGIN_DIR}/*/ 2>/dev/null | grep -q device-plugin-ovs; then echo nm_ovs_plugin=1; else echo nm_ovs_plugin=0; fi`);
  return lines.join('\n');
}

/** `ipip=1` lines -> { ipip: true }; anything else is ignored. */
export function parseCapabilityLines(text: string): LabCapabilities {
  const caps: LabCapabilities = {};
  for (const line of text.split('\n')) {
    const m = /^([a-z0-9_]+)=([01])$/.exec(line.trim());
    if (m) caps[m[1]!] = m[2] === '1';
  }
  return caps;
}

export async function probeVmCapabilities(state: LabState, host: HostState): Promise<LabCapabilities> {
  let r = await vmExec(state, host, capabilityScript());
  for (let i = 0; i < 3 && r.code === 255; i++) r = await vmExec(state, host, capabilityScript()); // ssh itself failed
  const caps = parseCapabilityLines(r.stdout);
  if (r.code !== 0 || !('ipip' in caps)) throw new Error(`${host.name}: capability probe failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`);
  return caps;
}
