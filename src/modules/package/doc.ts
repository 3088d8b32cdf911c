import type { ModuleDoc } from '../types.js';

export const packageDoc: ModuleDoc = {
  description:
    'Installs, removes or upgrades packages with apt (Debian/Ubuntu) or dnf/yum (RHEL). The manager is the ' +
    'hostwire_pkg_mgr variable when set, else what the host has. Installed versions are read with dpkg-query / rpm -q; ' +
    'apt-get update runs only when a wanted package is unknown to apt-cache.',
  args: {
    name: 'A package name or a list of them.',
    state: 'present (alias installed), absent (alias removed), or latest (upgrade when a newer version is available).',
  },
  example: '- package:\n    name: [openvswitch-switch, ethtool]\n    state: present',
  check: 'full',
  diff: 'full',
};
