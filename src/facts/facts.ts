// The Facts object the runner merges into host vars: Ansible's names where they exist,
// hostwire_* for what Ansible does not gather (systemd, NetworkManager, OVS, firewalld).
import type { InterfaceFacts } from './interfaces.js';
import type { NetworkManagerFacts } from './network-manager.js';
import type { OvsFacts } from './ovs.js';
import type { FirewalldFacts } from './firewalld.js';

/** Ansible's ansible_default_ipv4/6 (ansible-shape.ts): the default route's interface with its first address. */
export interface DefaultIpFacts {
  interface: string;
  gateway?: string;
  address?: string;
  prefix?: string;
  netmask?: string;
  network?: string;
  mtu?: number;
  macaddress?: string;
}

export interface Facts {
  ansible_hostname: string;
  ansible_nodename: string;
  ansible_distribution: string;
  ansible_distribution_version: string;
  ansible_distribution_major_version: string;
  ansible_distribution_release: string;
  ansible_os_family: string;
  ansible_kernel: string;
  ansible_processor_nproc: number;
  ansible_memtotal_mb: number;
  /** {} when there is no default route (as Ansible does); Ansible's keys (prefix a string, alias, type ...). */
  ansible_default_ipv4: Record<string, unknown>;
  ansible_default_ipv6: Record<string, unknown>;
  ansible_interfaces: string[];
  ansible_all_ipv4_addresses: string[];
  ansible_all_ipv6_addresses: string[];
  ansible_service_mgr: string;
  ansible_pkg_mgr: string;
  hostwire_interfaces: Record<string, InterfaceFacts>;
  hostwire_systemd: boolean;
  hostwire_networkmanager: NetworkManagerFacts;
  hostwire_ovs: OvsFacts;
  hostwire_firewalld: FirewalldFacts;
  hostwire_pkg_mgr: string;
  /** Facts that could not be read or parsed: "<id>: <reason>". Empty on a healthy host. */
  hostwire_fact_errors: string[];
  /** Per-interface details under Ansible's key: ansible_eth0, ansible_br_ex ... */
  [ansibleInterfaceKey: `ansible_${string}`]: unknown;
}
