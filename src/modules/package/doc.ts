import type { ModuleDoc } from '../types.js';

export const packageDoc: ModuleDoc = {
  description:
    'Installs, removes or upgrades packages with apt (Debian/Ubuntu) or dnf/yum (RHEL). The manager is `use` ' +
    'when given (it must be on the host), else the hostwire_pkg_mgr variable, else what the host has; Ansible\'s other ' +
    'managers (zypper, apk, pacman...) are refused by name. Installed versions are read with dpkg-query / rpm -q; ' +
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
