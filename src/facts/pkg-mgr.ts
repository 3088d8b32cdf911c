// Package manager, with Ansible's ansible_pkg_mgr names; the first found in preference order wins.
import type { FactProbe } from './types.js';

const BY_BINARY: [string, string][] = [
  ['dnf', 'dnf'], ['yum', 'yum'], ['apt-get', 'apt'], ['zypper', 'zypper'], ['apk', 'apk'], ['pacman', 'pacman'],
];

export const pkgMgrFact: FactProbe<string> = {
  id: 'pkg_mgr',
  // dash's `command -v` looks at its first argument only, hence the loop.
  command: `for b in ${BY_BINARY.map(([b]) => b).join(' ')}; do command -v "$b"; done`,
  parse(o) {
    const found = new Set(o.stdout.split('\n').map((l) => l.trim().split('/').pop()).filter(Boolean));
    return BY_BINARY.find(([b]) => found.has(b))?.[1] ?? 'unknown';
  },
};
