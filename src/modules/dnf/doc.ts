import type { ModuleDoc } from '../types.js';

const ARGS: Record<string, string> = {
  name: "Package specs (a list or a comma-separated string): name, name.arch, name-version[-release], a wildcard, 'name >= version'; '*' with latest upgrades everything.",
  state: 'present (installed), latest, or absent (removed); unset: present, or absent with autoremove.',
  enablerepo: 'Repository ids or patterns enabled for this transaction (--enablerepo).',
  disablerepo: 'Repository ids or patterns disabled for this transaction (--disablerepo).',
  exclude: 'Packages excluded from the transaction (--exclude).',
  conf_file: 'The dnf configuration file to use (--config).',
  disable_gpg_check: 'Do not check package signatures (--nogpgcheck).',
  install_weak_deps: 'Install weak dependencies (Recommends); passed to dnf explicitly, as the module sets it.',
  autoremove: 'Remove dependencies no longer needed (alone, or with absent: removal also cleans the removed packages\' requirements).',
  allowerasing: 'Let the transaction erase conflicting packages (--allowerasing).',
  nobest: 'Do not insist on the best candidate (--nobest); latest asks for the best otherwise.',
  allow_downgrade: 'Install a named older version over a newer installed one.',
  security: 'Only security updates (--security).',
  bugfix: 'Only bugfix updates (--bugfix).',
  skip_broken: 'Skip packages with broken dependencies (--skip-broken).',
  update_only: 'With present/latest: only upgrade installed packages; the others are listed in results as not installed.',
  update_cache: 'Refresh the metadata first (--refresh; alone: dnf makecache, "Cache updated", changed=false).',
  cacheonly: 'Use the metadata cache only (--cacheonly).',
  releasever: 'The release version dnf substitutes in repository URLs (--releasever).',
  disable_excludes: 'all, main or a repository id whose excludes are ignored (--disableexcludes).',
  disable_plugin: 'dnf plugins disabled for the transaction.',
  enable_plugin: 'dnf plugins enabled for the transaction.',
  sslverify: 'Verify repositories\' TLS certificates (false: --setopt=sslverify=False).',
  validate_certs: 'Accepted as Ansible does; it matters only for URLs in name, which are not built.',
  lock_timeout: 'Accepted as Ansible 2.14\'s dnf module does (it does not use it); dnf waits for its own lock.',
  install_repoquery: 'Accepted and ignored, as the dnf module ignores it (a yum option).',
  installroot: 'Only / is built.',
  list: 'Not built: refused (use package_facts).',
  download_only: 'Not built: only false is accepted.',
  download_dir: 'Not built: refused.',
};

const DESCRIPTION =
  'Installs, upgrades or removes rpm packages as ansible.builtin.dnf (ansible-core 2.14) does, without a Python start when the ' +
  "installed packages settle it: one read (rpm -q per spec, rpm -qa for a wildcard, --whatprovides) answers present for installed " +
  "specs and absent for missing ones (\"Nothing to do\"). Otherwise `dnf -y install|upgrade|remove -- specs` runs with the options " +
  "the arguments give, and its transaction table becomes the module's results (\"Installed: NEVRA\", \"Removed: NEVRA\"); an " +
  "unknown spec fails with the module's failures list and installs nothing. --check runs `dnf --assumeno` (the transaction " +
  "predicted, nothing done), as the module resolves without running. latest installs new specs and upgrades installed ones in " +
  'two dnf runs (the module: one transaction). Not built: groups and modules (@...), rpm files, URLs and file paths, list, download_only.';

export const dnfDoc: ModuleDoc = {
  description: DESCRIPTION,
  args: ARGS,
  example: '- dnf:\n    name: [openvswitch3.1, NetworkManager-ovs]\n    state: present\n    enablerepo: fast-datapath',
  check: 'full',
  diff: 'none',
};

export const yumDoc: ModuleDoc = {
  description:
    "ansible.builtin.yum as Ansible's yum action runs it on a dnf host: the dnf module (see dnf) with the same arguments. " +
    'The backend is use_backend (or use) when given, else the ansible_facts.pkg_mgr fact, else dnf when the host has it; ' +
    "the yum3 backend (yum's Python 2 API) is not built and is refused.",
  args: { ...ARGS, use_backend: 'auto, yum, yum4 or dnf: the backend (yum4 is dnf; yum is refused).', use: 'The same as use_backend (mutually exclusive with it).' },
  example: '- yum:\n    name: [iptables-services]\n    state: present',
  check: 'full',
  diff: 'none',
};
