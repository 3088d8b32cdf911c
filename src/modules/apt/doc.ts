import type { ModuleDoc } from '../types.js';

export const aptDoc: ModuleDoc = {
  description:
    "Installs, upgrades or removes Debian packages as ansible.builtin.apt (ansible-core 2.14) does, without python3-apt: " +
    'one read (dpkg-query, apt-cache policy, the cache\'s age, apt-cache pkgnames for wildcards) gives what the module reads ' +
    'from its cache; name=VERSION picks the newest version matching the pattern, latest the candidate. update_cache refreshes ' +
    'when the cache is older than cache_valid_time, and counts as a change only when nothing else is asked and the lists ' +
    'changed. --check runs apt-get --simulate, as the module does. Not built: upgrade, build-dep/fixed, default_release, ' +
    "'*'; a virtual package name is handed to apt-get (so it is asked again on every run unless apt-get finds nothing to do).",
  args: {
    name: 'Package names, name=VERSION (wildcards allowed in both) or name>=VERSION; wildcards in a name match the cache\'s names.',
    state: 'present, absent or latest.',
    update_cache: 'Run apt-get update first (when the cache is older than cache_valid_time).',
    cache_valid_time: 'Seconds the cache stays valid; also refreshes a stale cache without update_cache, as Ansible does.',
    purge: 'With absent: remove configuration files too (also purges a package already removed with its files left).',
    autoremove: 'Remove dependencies no longer needed (with names: --auto-remove; alone: apt-get autoremove).',
    install_recommends: 'Install recommended packages (yes/no); unset leaves apt\'s configuration.',
    deb: 'Absolute path of a .deb on the host to install (its dependencies through apt); nothing when that version is installed.',
    dpkg_options: 'Comma-separated dpkg options passed as -o Dpkg::Options::=--OPTION.',
  },
  example: '- apt:\n    name: [openvswitch-switch, ethtool]\n    update_cache: true\n    cache_valid_time: 3600',
  check: 'full',
  diff: 'full',
};
