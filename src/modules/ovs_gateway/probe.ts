// One read of everything the gateway bridge depends on: OVS bridges/ports/interfaces, links and
// addresses, routes, MCO's hint files, hostwire's saved state, NetworkManager, nftables, the boot unit.
import { section, requireTool } from '../../probe/sections.js';
import { KMOD_PROBE } from './datapath.js';
import { IFUPDOWN_PROBE } from './ifupdown.js';
import { BOOT_UNIT, BOOT_UNIT_PATH, ETC_DIR, LIB_DIR, RUN_DIR, SCRIPT_PATH } from './script/index.js';

/** MCO's inputs for choosing the uplink, read as files. */
export const HINT_FILES = {
  defaultBridge: '/etc/ovnk/default_bridge',
  extraBridge: '/etc/ovnk/extra_bridge',
  ifaceHint: '/var/lib/ovnk/iface_default_hint',
  nodeIp: '/run/nodeip-configuration/primary-ip',
} as const;

const VS = 'ovs-vsctl --timeout=5';
const NM_PLUGIN_GLOB = '/usr/lib/*/NetworkManager/*/libnm-device-plugin-ovs.so /usr/lib64/NetworkManager/*/libnm-device-plugin-ovs.so';

export const GATEWAY_PROBE = [
  requireTool('ip'),
  section('machine-id', 'cat /etc/machine-id'),
  section('ovs-br', `${VS} --format=json --columns=name,datapath_type,fail_mode,other_config,external_ids list Bridge`),
  section('ovs-ports', `for b in $(${VS} list-br); do echo "@@br $b"; ${VS} list-ports "$b"; done`),
  section('ovs-if', `${VS} --format=json --columns=name,type,mtu_request list Interface`),
  section('addr', 'ip -d -j addr'),
  // Every route of every table, read once: the main table's (both families, the uplink's static routes move too,
  // uplink-routes.ts) are the ones without a table; the uplink's in other tables would not move, the plan
  // refuses them (uplink-unmovable.ts), as it refuses its policy rules.
  section('route4-all', 'ip -j -4 route show table all'),
  section('route6-all', 'ip -j -6 route show table all'),
  // A locked metric (`mtu lock 1400`) is not in ip's JSON: the main table's routes that have one, as text.
  section('route-lock', "ip -4 route show table main | grep -F ' lock '; ip -6 route show table main | grep -F ' lock ' | sed 's/^/-6 /'; true"),
  section('rule4', 'ip -j -4 rule show'),
  section('rule6', 'ip -j -6 rule show'),
  section('files', `for f in ${Object.values(HINT_FILES).join(' ')} ${BOOT_UNIT_PATH} ${ETC_DIR}/*.env ${LIB_DIR}/*.prev; do [ -f "$f" ] && { echo "@@file $f"; cat "$f"; echo; }; done; true`),
  section('nm', `command -v nmcli >/dev/null || exit 127; nmcli -t -f RUNNING general; echo "@@version $(nmcli --version 2>/dev/null | awk '{print $NF}')"; for p in ${NM_PLUGIN_GLOB}; do [ -e "$p" ] && echo "@@plugin ovs"; done; nmcli -t -f DEVICE,TYPE,STATE,CON-UUID device`),
  // NM's DHCPv6 client: the DUID/IAID a DHCPv6 uplink's lease is bound to (networkd on br-ex sends the same).
  section('dhcp6', 'command -v nmcli >/dev/null || exit 0; nmcli -t -f GENERAL.DEVICE,DHCP6 device show'),
  // ifupdown's DHCP client (ISC dhclient) on the uplink: its stanza, its process, the DUID it sends (ifupdown.ts).
  section('ifupdown', IFUPDOWN_PROBE),
  section('nft', 'nft list tables netdev'),
  // Transactions still running: their unit is active; "waiting" once applied and checked (confirm window).
  section('pending', `systemctl list-units --plain --no-legend --state=active,activating 'hostwire-configure-ovs-*.service' 2>/dev/null | while read -r u _; do id=\${u#hostwire-configure-ovs-}; id=\${id%.service}; [ -e ${RUN_DIR}/result-"$id" ] && continue; if [ -e ${RUN_DIR}/waiting-"$id" ]; then echo "$id waiting $(cat ${RUN_DIR}/waiting-"$id")"; else echo "$id applying"; fi; done; true`),
  section('kmod', KMOD_PROBE),
  // A kernel booted with ipv6.disable=1 has no /proc/sys/net/ipv6; otherwise every device's disable_ipv6 sysctl
  // (`all` and `default` too: a device made later, br-ex or a bond made again at boot, takes `default`).
  section('ipv6', '[ -d /proc/sys/net/ipv6 ] && echo on || echo off; grep -H . /proc/sys/net/ipv6/conf/*/disable_ipv6 2>/dev/null; true'),
  section('boot', `systemctl is-enabled ${BOOT_UNIT}; sha256sum ${SCRIPT_PATH} | cut -d' ' -f1`),
].join('\n');
