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

/**
 * Ansible's distro default (facts/system/pkg_mgr.py): on a Debian-family host the fact is apt whatever else
 * is installed ("It's possible to install yum, dnf, zypper, rpm, etc inside of Debian. Doing so does not
 * mean the system wants to use them").
 */
export const familyPkgMgr = (found: string, osFamily: string): string => (osFamily === 'Debian' ? 'apt' : found);
