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
      hostwire_lab_capabilities: state.capabilities,
    };
  }
  const members = Object.fromEntries(state.hosts.map((h) => [h.name, {}]));
  return { all: { hosts, children: { lab: { hosts: members } } } };
}

export const labInventoryYaml = (state: LabState): string => stringify(labInventory(state), { lineWidth: 0 });
