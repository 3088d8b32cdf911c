// Answers in, files out: an Ansible-format YAML inventory, group_vars/all.yml and a playbook that
// imports hostwire's own, plus the exact command to run. Pure (the CLI writes the files).
import path from 'node:path';
import YAML from 'yaml';
import type { InitAnswers } from './answers.js';

export interface GeneratedFile {
  path: string;
  content: string;
}

export interface Generated {
  files: GeneratedFile[];
  command: string;
}

const TITLES = { microshift: 'MicroShift single node', flannel: 'flannel host-gw cluster', ovn: 'OVN cluster' } as const;

/** `repoDir`: where hostwire's playbooks/ and roles/ are; `outDir`: where the files go (as the user typed it). */
export function generate(a: InitAnswers, o: { repoDir: string; outDir: string }): Generated {
  const rel = (f: string) => (o.outDir === '.' || o.outDir === '' ? f : path.join(o.outDir, f));
  const files = [
    { path: 'inventory.yml', content: inventory(a) },
    { path: 'group_vars/all.yml', content: groupVars(a) },
    { path: 'site.yml', content: playbook(a, o.repoDir) },
  ];
  const command = `hostwire run ${rel('site.yml')} -i ${rel('inventory.yml')} --roles-path ${path.join(o.repoDir, 'roles')}`;
  return { files, command };
}

function inventory(a: InitAnswers): string {
  const hosts: Record<string, unknown> = {};
  for (const h of a.hosts) hosts[h.name] = { ansible_host: h.address };
  // A ramp node may be one of the cluster nodes (role f5_ramp_node's usual case) or an extra host.
  const ramps = (a.ramp?.hosts ?? []).map((r) => a.hosts.find((h) => h.name === r.name || h.address === r.address) ?? r);
  for (const h of ramps) hosts[h.name] ??= { ansible_host: h.address };
  const members = (list: { name: string }[]) => Object.fromEntries(list.map((h) => [h.name, {}]));
  const children: Record<string, unknown> = {};
  if (a.type !== 'microshift') {
    children.masters = { hosts: members(a.hosts.slice(0, 1)) };
    children.nodes = { hosts: members(a.hosts) };
    children.etcd = { hosts: members(a.hosts.slice(0, 1)) };
  } else children.microshift = { hosts: members(a.hosts) };
  if (a.ramp) children.f5_ramp = { hosts: members(ramps) };
  const head = `# ${TITLES[a.type]}: written by \`hostwire init\`. Hosts and groups only; settings are in group_vars/all.yml.\n`;
  return head + YAML.stringify({ all: { hosts, children } }, { indent: 2 });
}

function groupVars(a: InitAnswers): string {
  const lines: string[] = [`# Settings for the ${TITLES[a.type]} (written by \`hostwire init\`; edit freely).`, ''];
  const put = (comment: string, key: string, value: unknown) => {
    lines.push(`# ${comment}`);
    lines.push(YAML.stringify({ [key]: value }, { indent: 2 }).trimEnd());
  };
  put('SSH login for every host', 'ansible_user', a.user);
  if (a.key) put('SSH private key', 'ansible_ssh_private_key_file', a.key);
  if (a.type === 'microshift') {
    put('MicroShift cluster network (pods; MicroShift reads its own from /etc/microshift/config.yaml, hostwire trusts it in firewalld)', 'microshift_cluster_network', a.network);
    put('no_uplink: br-ex without a NIC (safe); uplink: the default-route NIC moves into br-ex (disruptive)', 'microshift_configure_ovs_mode', a.uplink ? 'uplink' : 'no_uplink');
    if (a.mtu) put('pod MTU in MicroShift\'s ovn.yaml', 'microshift_mtu', a.mtu);
    put('sources firewalld trusts: the pod network, MicroShift\'s host-network address, and yours', 'firewalld_trusted_sources', [a.network, ...a.firewallSources]);
  } else {
    put('pod network: flannel-hostgw or ovn', 'sdn', a.type === 'flannel' ? 'flannel-hostgw' : 'ovn');
    put('the cluster network every node\'s pod subnet comes from', 'cluster_network', a.network);
    if (a.type === 'flannel') put(`each node's subnet length (/${a.subnetLen} = ${2 ** (32 - a.subnetLen) - 2} pods per node)`, 'flannel_hostgw_subnet_len', a.subnetLen);
    else {
      put(`each node's subnet length (/${a.subnetLen}), OpenShift-style allocation (read by \`hostwire subnets\` and \`hostwire graph\`)`, 'pod_subnet_len', a.subnetLen);
      lines.push('pod_subnet_style: openshift');
    }
    if (a.mtu && a.type === 'flannel') {
      put('MTU of the pod interfaces (host-gw has no overlay: the uplink MTU)', 'flannel_hostgw_mtu', a.mtu);
      lines.push(`cni_config_mtu: ${a.mtu}`);
    } else if (a.mtu) lines.push(`# MTU ${a.mtu}: no role reads a pod MTU for OVN yet (geneve needs the uplink MTU - 100).`);
    if (a.firewallSources.length) put('extra sources firewalld trusts (the cluster network is always trusted)', 'firewalld_trusted_extra_sources', a.firewallSources);
  }
  if (a.ramp) {
    put('F5 ramp nodes (group f5_ramp, role f5_ramp_node): the VIP the F5 tunnels to', 'f5_ramp_vip', a.ramp.vip);
    if (a.ramp.f5Ip) put('the F5\'s address on the network it shares with the ramp nodes', 'f5_ramp_f5_ip', a.ramp.f5Ip);
    else lines.push('# f5_ramp_f5_ip: set the F5\'s address here (required by role f5_ramp_node), with its tunnel addresses');
  }
  return lines.join('\n') + '\n';
}

function playbook(a: InitAnswers, repoDir: string): string {
  const target = path.join(repoDir, 'playbooks', a.type === 'microshift' ? 'microshift.yml' : 'site.yml');
  return `# ${TITLES[a.type]}: hostwire's playbook for it, with this directory's inventory and group_vars.\n# Re-running it is safe: every step is idempotent.\n- import_playbook: ${target}\n`;
}
