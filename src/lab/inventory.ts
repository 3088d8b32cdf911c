// A lab as an Ansible-format inventory: hostwire reads it, and so does ansible-playbook when run inside
// the lab namespace (`ip netns exec hw-<lab> ansible-playbook -i ...`).
import { stringify } from 'yaml';
import type { LabState } from './state.js';

export function labInventory(state: LabState): Record<string, unknown> {
  const hosts: Record<string, Record<string, unknown>> = {};
  for (const h of state.hosts) {
    hosts[h.name] = {
      ansible_host: h.ip,
      ansible_user: 'root',
      ansible_ssh_private_key_file: state.keyFile,
      ansible_ssh_common_args: `-o UserKnownHostsFile=${state.knownHostsFile} -o StrictHostKeyChecking=yes -o IdentitiesOnly=yes`,
      hostwire_netns: state.netns,
      hostwire_lab: state.name,
      hostwire_lab_kind: h.kind ?? 'nspawn',
      // An emulated VM on busy cores may need far more than the usual 10 s for the SSH handshake.
      ...(h.kind === 'vm' ? { ansible_timeout: 60 } : {}),
      // A VM host has its own kernel, so its own capabilities (ipip, kernel OVS datapath ...).
      hostwire_lab_capabilities: h.capabilities ?? state.capabilities,
    };
  }
  const members = Object.fromEntries(state.hosts.map((h) => [h.name, {}]));
  const vms = state.hosts.filter((h) => h.kind === 'vm');
  // `lab_vms`: the hosts with a real kernel of their own, for plays that need one (ipip, kernel OVS).
  const children = vms.length ? { lab: { hosts: members }, lab_vms: { hosts: Object.fromEntries(vms.map((h) => [h.name, {}])) } } : { lab: { hosts: members } };
  return { all: { hosts, children } };
}

export const labInventoryYaml = (state: LabState): string => stringify(labInventory(state), { lineWidth: 0 });
