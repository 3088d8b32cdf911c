import type { ModuleDoc } from '../types.js';

export const packageFactsDoc: ModuleDoc = {
  description:
    'Returns the installed packages as ansible_facts.packages (ansible.builtin.package_facts): each name maps to a list ' +
    'of installed versions in Ansible\'s shapes - apt: name, version, arch, category, origin, source; rpm: name, version, ' +
    'release, epoch, arch, source. Read from dpkg-query and apt-cache policy (origin: the Release origin of the first ' +
    'index holding the installed version, as python-apt gives it) or rpm -qa, so the host needs neither python3-apt nor ' +
    'python3-rpm (where it lacks them the module fails; hostwire answers). Managers other than apt and rpm are refused.',
  args: {
    manager: "A list of managers: auto (every one, in the module's order: rpm before apt), apt, rpm.",
    strategy: 'first: the packages of the first manager found; all: of every manager found.',
  },
  example: '- package_facts:\n    manager: auto',
  check: 'full',
  diff: 'none',
};
