// The network state modules on a real lab host: converge, converge again (no change), drift by
// hand, --check --diff reports it without touching the host, a normal run fixes it.
// OVS bridges use datapath_type=netdev (no kernel datapath in the lab); ipip/gre are skipped by name.
import test, { type ExecutionContext } from 'ava';
import { convergeCycle, labHost, moduleRunner, type LabHost, type ModuleRunner } from '../helpers/lab-host.js';
import type { Transport } from '../../src/transports/transport.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
let host: LabHost;
let tr: Transport;

test.before(async () => {
  host = await labHost(LAB);
  tr = host.transport;
  // OVS, NetworkManager and firewalld start at boot in the lab rootfs; etcd is started here.
  await sh('systemctl start openvswitch-switch NetworkManager firewalld etcd');
});

test.after.always(async () => {
  await host?.close();
});

const run: ModuleRunner = (name, args, o) => moduleRunner(host)(name, args, o);
const sh = (cmd: string) => host.sh(cmd);
const cycle = (t: ExecutionContext, name: string, args: Record<string, unknown>, drift: string, read: string) => convergeCycle(t, host, run, name, args, drift, read);

test.serial('ip_link, ip_addr, ip_route', async (t) => {
  await cycle(t, 'ip_link', { name: 'hwl0', kind: 'bridge', mtu: 1400 }, 'ip link set hwl0 mtu 1500', 'ip -o link show hwl0 | grep -o "mtu [0-9]*"');
  const vx = { name: 'hwvx0', kind: 'vxlan', parameters: { id: 10, remote: '192.0.2.9', dstport: 4789, dev: 'eth0' } };
  await cycle(t, 'ip_link', vx, 'ip link del hwvx0 && ip link add hwvx0 type vxlan id 11 remote 192.0.2.9 dstport 4789 dev eth0 && ip link set hwvx0 up', 'ip -d -o link show hwvx0 | grep -o "vxlan id [0-9]*"');
  await cycle(t, 'ip_link', { name: 'hwva', kind: 'veth', parameters: { peer: 'hwvb' }, mtu: 1450 }, 'ip link del hwva && ip link add hwva mtu 1450 type veth peer name hwvc && ip link set hwva up', 'ip -o link show hwva | cut -d: -f2');
  // The lab kernel has no ipip/gre: creating one fails and says so (skipped by name where it exists).
  const ipip = await tr.exec('ip link add hwprobe type ipip remote 192.0.2.2 2>&1; ip link del hwprobe 2>/dev/null; true');
  if (/Unknown device type/.test(ipip.stdout)) {
    await t.throwsAsync(run('ip_link', { name: 'hwip0', kind: 'ipip', parameters: { remote: '192.0.2.2' } }), { message: /kernel lacks ipip/ });
  }
  const addr = await cycle(t, 'ip_addr', { dev: 'hwl0', addresses: ['192.0.2.50/24', '2001:db8:5::1/64'], exclusive: true }, 'ip addr add 192.0.2.51/24 dev hwl0', 'ip -o addr show dev hwl0 scope global | awk "{print \\$4}"');
  t.regex(addr.diff![0].before!, /192\.0\.2\.51\/24/);
  await cycle(t, 'ip_route', { dst: '198.51.100.0/24', via: '192.0.2.1', dev: 'hwl0' }, 'ip route replace 198.51.100.0/24 via 192.0.2.2 dev hwl0', 'ip route show 198.51.100.0/24');
  await cycle(t, 'ip_route', { dst: '203.0.113.0/24', dev: 'hwl0', table: 100, metric: 5 }, 'ip route del 203.0.113.0/24 table 100 metric 5', 'ip route show table 100');
});

test.serial('ovs_bridge, ovs_port, ovs_db, ovs_flows', async (t) => {
  await cycle(t, 'ovs_bridge', { bridge: 'br-lab', datapath_type: 'netdev', fail_mode: 'secure', external_ids: { owner: 'hostwire' } }, 'ovs-vsctl set bridge br-lab fail_mode=standalone external_ids:owner=x', 'ovs-vsctl get bridge br-lab fail_mode external_ids:owner');
  await cycle(t, 'ovs_port', { bridge: 'br-lab', port: 'vxl0', type: 'vxlan', options: { remote_ip: '192.0.2.9', key: 'flow' } }, 'ovs-vsctl set interface vxl0 options:remote_ip=192.0.2.99', 'ovs-vsctl get interface vxl0 options');
  await cycle(t, 'ovs_db', { col: 'other_config', key: 'n-handler-threads', value: 2 }, 'ovs-vsctl set Open_vSwitch . other_config:n-handler-threads=5', 'ovs-vsctl get Open_vSwitch . other_config:n-handler-threads');
  t.deepEqual((await run('ovs_db', { col: 'other_config', key: 'n-handler-threads', state: 'absent' })).changes, ['unset Open_vSwitch . other_config:n-handler-threads']);
  await sh('ovs-ofctl add-flow br-lab "cookie=0x5,priority=1,actions=drop"');
  const flows = { bridge: 'br-lab', cookie: '0x77', flows: ['priority=100,ip,nw_dst=10.0.0.0/255.255.255.0,actions=output:vxl0', 'table=0,in_port=vxl0,actions=normal', 'table=1,priority=10,ip,actions=set_field:10.0.0.1->nw_dst,goto_table:2'] };
  const drift = 'ovs-ofctl --strict del-flows br-lab "cookie=0x77/-1,priority=100,ip,nw_dst=10.0.0.0/24" && ovs-ofctl add-flow br-lab "cookie=0x77,priority=7,actions=drop"';
  await cycle(t, 'ovs_flows', flows, drift, 'ovs-ofctl dump-flows --no-stats br-lab | sort');
  t.regex(await sh('ovs-ofctl dump-flows --no-stats br-lab cookie=0x5/-1'), /priority=1 actions=drop/, 'other cookies untouched');
  await t.throwsAsync(run('ovs_port', { bridge: 'nobr', port: 'x0', type: 'internal' }), { message: /no bridge named nobr/ });
});

test.serial('firewalld', async (t) => {
  const args = { zone: 'trusted', source: '10.123.0.0/16', state: 'enabled', permanent: true, immediate: true };
  const checked = await cycle(t, 'firewalld', args, 'firewall-cmd --zone trusted --remove-source 10.123.0.0/16', 'firewall-cmd --zone trusted --list-sources; firewall-cmd --permanent --zone trusted --list-sources');
  t.deepEqual(checked.changes, ['add source 10.123.0.0/16 to zone trusted (runtime)'], 'only the runtime drifted');
  await t.throwsAsync(run('firewalld', { zone: 'public', source: '10.123.0.0/16', state: 'enabled', permanent: true }), { message: /ZONE_CONFLICT.*zone trusted.*zone public/ });
  await cycle(t, 'firewalld', { zone: 'public', port: '8443/tcp', state: 'enabled' }, 'firewall-cmd --zone public --remove-port 8443/tcp', 'firewall-cmd --zone public --list-ports');
});

test.serial('iptables', async (t) => {
  const args = { chain: 'HW-LAB', rule: '-s 10.0.0.0/8 -p tcp --dport 22 -j ACCEPT', comment: 'hw ssh' };
  await cycle(t, 'iptables', args, 'iptables -R HW-LAB 1 -s 10.0.0.0/8 -p tcp --dport 23 -m comment --comment "hw ssh" -j ACCEPT', 'iptables -S HW-LAB');
  await cycle(t, 'iptables', { chain: 'HW-LAB', rule: ['-p', 'udp', '-j', 'DROP'], position: 1, ip_version: 6 }, 'ip6tables -F HW-LAB', 'ip6tables -S HW-LAB');
  t.is((await sh('iptables -S HW-LAB')).split('\n').filter((l) => l.startsWith('-A')).length, 1, 'never duplicated');
});

test.serial('nm_connection', async (t) => {
  const args = { conn_name: 'hw-lab-br', type: 'bridge', ifname: 'hwnm0', properties: { 'ipv4.method': 'manual', 'ipv4.addresses': '192.0.2.60/24', 'ipv6.method': 'disabled', 'connection.autoconnect': false, 'bridge.stp': false }, state: 'up' };
  await cycle(t, 'nm_connection', args, 'nmcli connection modify hw-lab-br ipv4.addresses 192.0.2.61/24 && nmcli connection down hw-lab-br', 'nmcli -g ipv4.addresses,GENERAL.STATE connection show hw-lab-br');
  t.regex(await sh('ip -o addr show dev hwnm0'), /192\.0\.2\.60\/24/, 'the device carries the address');
  const mem = { conn_name: 'hw:mem\\x', type: 'bridge', ifname: 'hwnm1', properties: { 'ipv4.method': 'disabled', 'ipv6.method': 'disabled', 'connection.autoconnect': false }, persistent: false };
  await cycle(t, 'nm_connection', mem, 'nmcli connection modify --temporary "hw:mem\\x" ipv4.method link-local', 'nmcli -g ipv4.method connection show "hw:mem\\x"');
  t.regex(await sh('nmcli -t -e yes -f NAME,FILENAME connection show'), /hw\\:mem\\\\x:\/run\/NetworkManager/, 'kept in memory only');
  t.true((await run('nm_connection', { conn_name: 'hw:mem\\x', state: 'absent' })).changed);
});

test.serial('etcd_key', async (t) => {
  const args = { key: '/hw-lab/cfg', value: { network: '10.128.0.0/14', vni: 4097 } };
  await cycle(t, 'etcd_key', args, 'ETCDCTL_API=3 etcdctl put /hw-lab/cfg changed', 'ETCDCTL_API=3 etcdctl get --print-value-only /hw-lab/cfg');
  t.false((await run('etcd_key', { key: '/hw-lab/cfg', value: 'other', mode: 'create' })).changed, 'create never overwrites');
  t.true((await run('etcd_key', { key: '/hw-lab/cfg', state: 'absent' })).changed);
});
