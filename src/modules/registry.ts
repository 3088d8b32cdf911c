// The modules hostwire ships, by the short name tasks use. A module's code (and its zod schema) is loaded
// only when a task names it: a run loads what its playbook uses, not all seventy (~0.07 s of start-up).
// loadModules() before getModule(); all.ts loads every one (docs, `hostwire doc`, tests).
import type { Module } from './types.js';

const NATIVE: Record<string, () => Promise<Module<any, any>>> = {
  add_host: () => import('./add_host/add_host.js').then((m) => m.addHostModule),
  apt: () => import('./apt/apt.js').then((m) => m.aptModule),
  assert: () => import('./debug/debug.js').then((m) => m.assertModule),
  async_status: () => import('./async_status/async_status.js').then((m) => m.asyncStatusModule),
  blockinfile: () => import('./blockinfile/blockinfile.js').then((m) => m.blockinfileModule),
  command: () => import('./command/command.js').then((m) => m.commandModule),
  copy: () => import('./copy/copy.js').then((m) => m.copyModule),
  debug: () => import('./debug/debug.js').then((m) => m.debugModule),
  dnf: () => import('./dnf/dnf.js').then((m) => m.dnfModule),
  etcd_key: () => import('./etcd_key/etcd_key.js').then((m) => m.etcdKeyModule),
  fail: () => import('./debug/debug.js').then((m) => m.failModule),
  fetch: () => import('./fetch/fetch.js').then((m) => m.fetchModule),
  file: () => import('./file/file.js').then((m) => m.fileModule),
  find: () => import('./find/find.js').then((m) => m.findModule),
  firewalld: () => import('./firewalld/firewalld.js').then((m) => m.firewalldModule),
  gather_facts: () => import('./setup/setup.js').then((m) => m.gatherFactsModule),
  get_url: () => import('./get_url/get_url.js').then((m) => m.getUrlModule),
  group: () => import('./group/group.js').then((m) => m.groupModule),
  group_by: () => import('./group_by/group_by.js').then((m) => m.groupByModule),
  include_vars: () => import('./include_vars/include_vars.js').then((m) => m.includeVarsModule),
  ini_file: () => import('./ini_file/ini_file.js').then((m) => m.iniFileModule),
  ip_addr: () => import('./ip_addr/ip_addr.js').then((m) => m.ipAddrModule),
  ip_link: () => import('./ip_link/ip_link.js').then((m) => m.ipLinkModule),
  ip_route: () => import('./ip_route/ip_route.js').then((m) => m.ipRouteModule),
  iptables: () => import('./iptables/iptables.js').then((m) => m.iptablesModule),
  lineinfile: () => import('./lineinfile/lineinfile.js').then((m) => m.lineinfileModule),
  meta: () => import('./debug/debug.js').then((m) => m.metaModule),
  modprobe: () => import('./modprobe/modprobe.js').then((m) => m.modprobeModule),
  mount: () => import('./mount/mount.js').then((m) => m.mountModule),
  nm_connection: () => import('./nm_connection/nm_connection.js').then((m) => m.nmConnectionModule),
  nmcli: () => import('./nm_connection/nmcli.js').then((m) => m.nmcliModule),
  openvswitch_bridge: () => import('./ovs_bridge/openvswitch_bridge.js').then((m) => m.openvswitchBridgeModule),
  openvswitch_db: () => import('./ovs_db/openvswitch_db.js').then((m) => m.openvswitchDbModule),
  openvswitch_port: () => import('./ovs_port/openvswitch_port.js').then((m) => m.openvswitchPortModule),
  ovs_bridge: () => import('./ovs_bridge/ovs_bridge.js').then((m) => m.ovsBridgeModule),
  ovs_db: () => import('./ovs_db/ovs_db.js').then((m) => m.ovsDbModule),
  ovs_flows: () => import('./ovs_flows/ovs_flows.js').then((m) => m.ovsFlowsModule),
  ovs_gateway: () => import('./ovs_gateway/ovs_gateway.js').then((m) => m.ovsGatewayModule),
  ovs_port: () => import('./ovs_port/ovs_port.js').then((m) => m.ovsPortModule),
  package: () => import('./package/package.js').then((m) => m.packageModule),
  package_facts: () => import('./package_facts/package_facts.js').then((m) => m.packageFactsModule),
  pause: () => import('./pause/pause.js').then((m) => m.pauseModule),
  ping: () => import('./ping/ping.js').then((m) => m.pingModule),
  raw: () => import('./raw/raw.js').then((m) => m.rawModule),
  reboot: () => import('./reboot/reboot.js').then((m) => m.rebootModule),
  replace: () => import('./replace/replace.js').then((m) => m.replaceModule),
  route_set: () => import('./route_set/route_set.js').then((m) => m.routeSetModule),
  script: () => import('./script/script.js').then((m) => m.scriptModule),
  seboolean: () => import('./selinux/seboolean.js').then((m) => m.sebooleanModule),
  selinux: () => import('./selinux/selinux.js').then((m) => m.selinuxModule),
  service: () => import('./service/service.js').then((m) => m.serviceModule),
  service_facts: () => import('./service_facts/service_facts.js').then((m) => m.serviceFactsModule),
  set_fact: () => import('./debug/debug.js').then((m) => m.setFactModule),
  set_stats: () => import('./set_stats/set_stats.js').then((m) => m.setStatsModule),
  setup: () => import('./setup/setup.js').then((m) => m.setupModule),
  shell: () => import('./command/command.js').then((m) => m.shellModule),
  slurp: () => import('./slurp/slurp.js').then((m) => m.slurpModule),
  stat: () => import('./stat/stat.js').then((m) => m.statModule),
  subnet_lease: () => import('./subnet_lease/subnet_lease.js').then((m) => m.subnetLeaseModule),
  sysctl: () => import('./sysctl/sysctl.js').then((m) => m.sysctlModule),
  systemd: () => import('./systemd/systemd.js').then((m) => m.systemdModule),
  systemd_service: () => import('./systemd/systemd.js').then((m) => m.systemdServiceModule),
  systemd_unit: () => import('./systemd_unit/systemd_unit.js').then((m) => m.systemdUnitModule),
  tempfile: () => import('./tempfile/tempfile.js').then((m) => m.tempfileModule),
  template: () => import('./template/template.js').then((m) => m.templateModule),
  unarchive: () => import('./unarchive/unarchive.js').then((m) => m.unarchiveModule),
  uri: () => import('./uri/uri.js').then((m) => m.uriModule),
  user: () => import('./user/user.js').then((m) => m.userModule),
  validate_argument_spec: () => import('./validate_argument_spec/validate.js').then((m) => m.validateArgumentSpecModule),
  wait_for: () => import('./wait_for/wait_for.js').then((m) => m.waitForModule),
  wait_for_connection: () => import('./wait_for_connection/wait_for_connection.js').then((m) => m.waitForConnectionModule),
  yum: () => import('./dnf/yum.js').then((m) => m.yumModule),
};

const modules = new Map<string, Module<any, any>>();

export function registerModule(m: Module<any, any>): void {
  modules.set(m.name, m);
}

/** Loads the native modules among `names` (short names; others are ignored) so getModule finds them. */
export async function loadModules(names: Iterable<string>): Promise<void> {
  const wanted = [...new Set(names)].filter((n) => Object.hasOwn(NATIVE, n) && !modules.has(n));
  for (const m of await Promise.all(wanted.map((n) => NATIVE[n]!()))) registerModule(m);
}

export function loadAllModules(): Promise<void> {
  return loadModules(Object.keys(NATIVE));
}

/** Modules found for loaded tasks beyond the native ones: src/fallback registers them by the name a task runs under. */
const resolvedModules = new Map<string, Module<any, any>>();

export function registerResolvedModule(name: string, m: Module<any, any>): void {
  resolvedModules.set(name, m);
}

/** Whether hostwire ships a module of this exact name (not one the fallback registered). */
export function hasNativeModule(name: string): boolean {
  return Object.hasOwn(NATIVE, name) || modules.has(name);
}

export function getModule(name: string): Module<any, any> | undefined {
  return modules.get(name) ?? resolvedModules.get(name);
}

// Where ansible-core 2.14 routes a short name to a collection (config/ansible_builtin_runtime.yml): that
// collection's name of the module is the native one too (community.general.modprobe), as is
// ansible.builtin.X (routed there by the same file).
const ROUTED: Record<string, string> = {
  ini_file: 'community.general', modprobe: 'community.general', nmcli: 'community.general',
  sysctl: 'ansible.posix', mount: 'ansible.posix', firewalld: 'ansible.posix', selinux: 'ansible.posix', seboolean: 'ansible.posix',
  openvswitch_db: 'openvswitch.openvswitch', openvswitch_bridge: 'openvswitch.openvswitch', openvswitch_port: 'openvswitch.openvswitch',
};
// hostwire's own modules: no Ansible module of that name exists, so ansible.builtin.X is not them.
const HOSTWIRE_ONLY = new Set(['systemd_unit', 'ip_link', 'ip_addr', 'ip_route', 'ovs_bridge', 'ovs_port', 'ovs_db', 'ovs_flows', 'nm_connection', 'etcd_key', 'ovs_gateway', 'route_set', 'subnet_lease']);

/**
 * Whether a task's module name (short or fully qualified) runs a native module: X, ansible.legacy.X,
 * ansible.builtin.X (not for hostwire's own modules) and the collection ansible-core routes X to. Any other
 * collection's X (foo.bar.stat) is that collection's module: the fallback looks for it.
 */
export function isKnownModule(name: string): boolean {
  const i = name.lastIndexOf('.');
  const short = name.slice(i + 1);
  if (!Object.hasOwn(NATIVE, short) && !modules.has(short)) return false;
  if (i < 0) return true;
  const ns = name.slice(0, i);
  if (ns === 'ansible.legacy') return true;
  if (ns === 'ansible.builtin') return !HOSTWIRE_ONLY.has(short);
  return ROUTED[short] === ns;
}

export function moduleNames(): string[] {
  return [...new Set([...Object.keys(NATIVE), ...modules.keys()])].sort();
}
