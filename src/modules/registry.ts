// The modules hostwire ships, by the short name tasks use.
import type { Module } from './types.js';
import { validateArgumentSpecModule } from './validate_argument_spec/validate.js';
import { commandModule, shellModule } from './command/command.js';
import { asyncStatusModule } from './async_status/async_status.js';
import { assertModule, debugModule, failModule, metaModule, setFactModule } from './debug/debug.js';
import { fileModule } from './file/file.js';
import { copyModule } from './copy/copy.js';
import { templateModule } from './template/template.js';
import { lineinfileModule } from './lineinfile/lineinfile.js';
import { iniFileModule } from './ini_file/ini_file.js';
import { sysctlModule } from './sysctl/sysctl.js';
import { systemdUnitModule } from './systemd_unit/systemd_unit.js';
import { serviceModule } from './service/service.js';
import { packageModule } from './package/package.js';
import { aptModule } from './apt/apt.js';
import { dnfModule } from './dnf/dnf.js';
import { yumModule } from './dnf/yum.js';
import { mountModule } from './mount/mount.js';
import { waitForModule } from './wait_for/wait_for.js';
import { ipLinkModule } from './ip_link/ip_link.js';
import { ipAddrModule } from './ip_addr/ip_addr.js';
import { ipRouteModule } from './ip_route/ip_route.js';
import { ovsBridgeModule } from './ovs_bridge/ovs_bridge.js';
import { ovsPortModule } from './ovs_port/ovs_port.js';
import { ovsDbModule } from './ovs_db/ovs_db.js';
import { ovsFlowsModule } from './ovs_flows/ovs_flows.js';
import { firewalldModule } from './firewalld/firewalld.js';
import { iptablesModule } from './iptables/iptables.js';
import { nmConnectionModule } from './nm_connection/nm_connection.js';
import { etcdKeyModule } from './etcd_key/etcd_key.js';
import { ovsGatewayModule } from './ovs_gateway/ovs_gateway.js';
import { routeSetModule } from './route_set/route_set.js';
import { subnetLeaseModule } from './subnet_lease/subnet_lease.js';
import { statModule } from './stat/stat.js';
import { slurpModule } from './slurp/slurp.js';
import { pingModule } from './ping/ping.js';
import { rawModule } from './raw/raw.js';
import { blockinfileModule } from './blockinfile/blockinfile.js';
import { replaceModule } from './replace/replace.js';
import { tempfileModule } from './tempfile/tempfile.js';
import { systemdModule, systemdServiceModule } from './systemd/systemd.js';
import { fetchModule } from './fetch/fetch.js';
import { includeVarsModule } from './include_vars/include_vars.js';
import { serviceFactsModule } from './service_facts/service_facts.js';
import { findModule } from './find/find.js';
import { scriptModule } from './script/script.js';
import { packageFactsModule } from './package_facts/package_facts.js';
import { gatherFactsModule, setupModule } from './setup/setup.js';
import { addHostModule } from './add_host/add_host.js';
import { groupByModule } from './group_by/group_by.js';
import { setStatsModule } from './set_stats/set_stats.js';
import { pauseModule } from './pause/pause.js';
import { getUrlModule } from './get_url/get_url.js';
import { rebootModule } from './reboot/reboot.js';
import { waitForConnectionModule } from './wait_for_connection/wait_for_connection.js';
import { modprobeModule } from './modprobe/modprobe.js';
import { openvswitchDbModule } from './ovs_db/openvswitch_db.js';
import { uriModule } from './uri/uri.js';
import { groupModule } from './group/group.js';
import { userModule } from './user/user.js';
import { unarchiveModule } from './unarchive/unarchive.js';
import { openvswitchBridgeModule } from './ovs_bridge/openvswitch_bridge.js';
import { openvswitchPortModule } from './ovs_port/openvswitch_port.js';
import { nmcliModule } from './nm_connection/nmcli.js';
import { selinuxModule } from './selinux/selinux.js';
import { sebooleanModule } from './selinux/seboolean.js';

const modules = new Map<string, Module<any, any>>();

export function registerModule(m: Module<any, any>): void {
  modules.set(m.name, m);
}

for (const m of [commandModule, shellModule, debugModule, assertModule, failModule, setFactModule, metaModule]) registerModule(m);
for (const m of [fileModule, copyModule, templateModule, lineinfileModule, iniFileModule, sysctlModule, systemdUnitModule, serviceModule, packageModule, waitForModule]) registerModule(m);
for (const m of [ipLinkModule, ipAddrModule, ipRouteModule, ovsBridgeModule, ovsPortModule, ovsDbModule, ovsFlowsModule, firewalldModule, iptablesModule, nmConnectionModule, etcdKeyModule]) registerModule(m);
registerModule(routeSetModule);
registerModule(subnetLeaseModule);
registerModule(asyncStatusModule);
registerModule(ovsGatewayModule);
registerModule(validateArgumentSpecModule);
for (const m of [statModule, slurpModule, pingModule, rawModule, blockinfileModule, replaceModule, tempfileModule, fetchModule]) registerModule(m);
for (const m of [systemdModule, systemdServiceModule, includeVarsModule]) registerModule(m);
for (const m of [serviceFactsModule, packageFactsModule, modprobeModule, openvswitchDbModule, openvswitchBridgeModule, openvswitchPortModule, nmcliModule, selinuxModule, sebooleanModule]) registerModule(m);
registerModule(findModule);
registerModule(scriptModule);
registerModule(getUrlModule);
for (const m of [setupModule, gatherFactsModule, addHostModule, groupByModule, setStatsModule, pauseModule]) registerModule(m);
// The run's own modules that reach the host again (issue 17).
for (const m of [rebootModule, waitForConnectionModule]) registerModule(m);
registerModule(uriModule);
registerModule(groupModule);
registerModule(userModule);
registerModule(unarchiveModule);

/** Modules found for loaded tasks beyond the native ones: src/fallback registers them by the name a task runs under. */
const resolvedModules = new Map<string, Module<any, any>>();

export function registerResolvedModule(name: string, m: Module<any, any>): void {
  resolvedModules.set(name, m);
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
  if (!modules.has(short)) return false;
  if (i < 0) return true;
  const ns = name.slice(0, i);
  if (ns === 'ansible.legacy') return true;
  if (ns === 'ansible.builtin') return !HOSTWIRE_ONLY.has(short);
  return ROUTED[short] === ns;
}

export function moduleNames(): string[] {
  return [...modules.keys()].sort();
}
registerModule(aptModule);
registerModule(dnfModule);
registerModule(yumModule);
registerModule(mountModule);
