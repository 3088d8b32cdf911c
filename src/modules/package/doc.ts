import type { ModuleDoc } from '../types.js';

export const packageDoc: ModuleDoc = {
  description:
    'Installs, removes or upgrades packages with apt (Debian/Ubuntu) or dnf/yum (RHEL). The manager is `use` ' +
    'when given (it must be on the host), else the pkg_mgr fact (ansible_facts.pkg_mgr, ansible_pkg_mgr, hostwire_pkg_mgr), else what the host has; Ansible\'s other ' +
    'managers (zypper, apk, pacman...) are refused by name. With dnf the dnf module runs (its result, its --check with ' +
    'dnf --assumeno), as Ansible\'s package action runs it; with apt/yum installed versions are read with dpkg-query / rpm -q, and ' +
    'apt-get update runs only when a wanted package is unknown to apt-cache.',
  args: {
    name: 'A package name or a list of them.',
    use: 'auto (detect), apt, dnf or yum: the package manager to drive (Ansible\'s package use).',
    state: 'present (alias installed), absent (alias removed), or latest (upgrade when a newer version is available).',
  },
  example: '- package:\n    name: [openvswitch-switch, ethtool]\n    state: present',
  check: 'full',
  diff: 'full',
};
