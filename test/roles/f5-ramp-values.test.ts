// Role f5_ramp_node splices its settings - some from the host's own facts (the default route's device
// and address) - into a boot-time shell script, a unit file and keepalived.conf. The settings check
// refuses anything but plain names, numbers and paths, and the script quotes every value anyway.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { evalCondition, renderString } from '../../src/engine/vars/render.js';

const script = readFileSync('roles/f5_ramp_node/templates/f5-ramp-apply.sh.j2', 'utf8');
const mainTasks = parse(readFileSync('roles/f5_ramp_node/tasks/main.yml', 'utf8')) as { name: string; assert?: { that: string[] } }[];
const plain = mainTasks.find((x) => x.name === 'Names, numbers and paths are plain')!.assert!.that;

/** Settings as a real run resolves them (the role's defaults with the lab's values). */
const settings = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  inventory_hostname: 'node1', f5_ramp_tunnel_mode: 'vxlan', f5_ramp_sdn: 'ovs', f5_ramp_tunnel_name: 'tun1',
  f5_ramp_f5_ip: '192.0.2.20', f5_ramp_f5_tunnel_ip: '10.3.91.216', f5_ramp_tunnel_ip: '10.3.91.217', f5_ramp_tunnel_prefix: 24,
  f5_ramp_vxlan_id: 1, f5_ramp_vxlan_port: 4789, f5_ramp_tunnel_mac: '02:f5:0a:03:5b:d9', f5_ramp_underlay_dev: 'eth0',
  f5_ramp_tunnel_local: '192.0.2.11', f5_ramp_cluster_network: '10.128.0.0/14', f5_ramp_sdn_ip: '', f5_ramp_sdn_address: '10.128.2.254',
  f5_ramp_flannel_subnet_env: '/run/flannel/subnet.env', f5_ramp_ovs_bridge: 'br0', f5_ramp_ovs_gateway_port: 'tun0',
  f5_ramp_ovs_gateway_ofport: 2, f5_ramp_ovs_cookie: '0x999', f5_ramp_sdn_wait_timeout: 300, f5_ramp_service: 'hostwire-f5-ramp',
  f5_ramp_script: '/usr/local/libexec/hostwire/f5-ramp-apply', f5_ramp_state_dir: '/etc/hostwire/f5-ramp',
  f5_ramp_restart_with: ['openvswitch-switch.service', 'ovs-vswitchd.service'], f5_ramp_vip: '', f5_ramp_vip_prefix: 24,
  f5_ramp_vrrp_interface: 'eth0', f5_ramp_vrrp_router_id: 51, f5_ramp_vrrp_priority: '150', f5_ramp_vrrp_advert_int: 1,
  f5_ramp_vrrp_auth_pass: '', f5_ramp_keepalived_conf: '/etc/keepalived/keepalived.conf', f5_ramp_k8s_node_name: 'node1',
  f5_ramp_f5_tunnel_name: 'SDN', f5_ramp_f5_snatpool: 'SDN_snatpool', f5_ramp_f5_virtual_servers: ['ose-vserver', 'https-ose-vserver'],
  ...extra,
});

const passes = (vars: Record<string, unknown>) => plain.every((c) => evalCondition(c, vars));

test('the settings of a real run pass the check', (t) => {
  t.true(passes(settings()));
  t.true(passes(settings({ f5_ramp_sdn_ip: '10.128.2.254', f5_ramp_vrrp_auth_pass: 'S3cr!t' })));
});

const hostile: [string, unknown][] = [
  ['f5_ramp_underlay_dev', 'eth0; reboot'], // a fact: the default route's device
  ['f5_ramp_tunnel_local', '$(id)'], // a fact: the default route's address
  ['f5_ramp_vrrp_interface', 'eth0\n  notify_master /tmp/x'],
  ['f5_ramp_vrrp_auth_pass', 'pw\n}\nglobal_defs {'],
  ['f5_ramp_service', 'x"; id; echo "'],
  ['f5_ramp_ovs_cookie', "0x1' -e x"],
  ['f5_ramp_tunnel_prefix', '24 dev lo'],
  ['f5_ramp_vrrp_priority', '-10'],
  ['f5_ramp_state_dir', '/etc/x y'],
  ['f5_ramp_restart_with', ['ovs-vswitchd.service', 'a.service\nExecStartPre=/bin/sh']],
  ['f5_ramp_k8s_node_name', '--all'],
  ['f5_ramp_tunnel_mac', '02:f5:0a:03:5b:d9 x'],
];
for (const [name, value] of hostile) {
  test(`the check refuses ${name} = ${JSON.stringify(value)}`, (t) => {
    t.false(passes(settings({ [name]: value })));
  });
}

test('valid settings render the script with no quotes added where none are needed', (t) => {
  const out = renderString(script, settings());
  t.true(out.includes("svc=hostwire-f5-ramp\n"));
  t.true(out.includes('ip addr replace 10.3.91.217/24 dev "$tun"\n'));
  t.true(out.includes('ip route replace 10.3.91.216/32 dev "$tun"\n'));
  t.true(out.includes('ip addr replace 10.128.2.254/32 dev "$gwport"'));
  t.true(out.includes('cookie=0x999\n'));
});

test('even unchecked, a hostile value stays one quoted word in the script', (t) => {
  const out = renderString(script, settings({ f5_ramp_service: 'x"; id; echo "', f5_ramp_sdn_address: '1.2.3.4; reboot', f5_ramp_ovs_cookie: "0x1'$(id)" }));
  t.true(out.includes(`svc='x"; id; echo "'\n`));
  t.true(out.includes(`ip addr replace '1.2.3.4; reboot/32' dev "$gwport"`));
  t.true(out.includes(`cookie='0x1'"'"'$(id)'\n`));
  t.false(out.includes('hostwire-f5-ramp'));
  t.false(/[^']1\.2\.3\.4; reboot/.test(out));
});
