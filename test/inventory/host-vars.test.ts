// Variable precedence for a host: inventory file groups by depth/priority/name, then
// group_vars/ and host_vars/ next to the inventory and next to the playbook, checked
// against what ansible-playbook printed for the same files.
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { groupNames, hostVars, loadInventory, loadVarsDir, sortGroups } from '../../src/engine/inventory/index.js';
import { fixture, readFixture, sourcesOf } from './helpers.js';

const played = JSON.parse(readFixture('golden', 'precedence-play.json')) as Record<string, Record<string, unknown>>;

test('vars with playbook-adjacent group_vars/host_vars match ansible-playbook', async (t) => {
  const inv = await loadInventory(sourcesOf('precedence'));
  const play = await loadVarsDir(fixture('precedence', 'playbook'), inv);
  t.deepEqual(Object.keys(played).sort(), ['h1', 'h2', 'h3', 'h4']);
  for (const [host, expected] of Object.entries(played)) {
    const vars = hostVars(inv, host, { playLayers: [play] });
    const picked = Object.fromEntries(Object.keys(expected).map((k) => [k, vars[k] ?? null]));
    t.deepEqual(picked, expected, host);
  }
});

test('depth beats name, priority beats name, host_vars beat inline host vars', async (t) => {
  const inv = await loadInventory(sourcesOf('precedence'));
  t.is(hostVars(inv, 'h1').level, 'host_vars_file');
  t.is(hostVars(inv, 'h2').v_leaf, 'from_leaf'); // leaf (depth 3) over aaa (depth 1)
  t.is(hostVars(inv, 'h3').sib, 'beta'); // same depth: later name wins
  t.is(hostVars(inv, 'h4').who, 'prio'); // ansible_group_priority=10 over zeta
  t.is(inv.groups.get('prio')!.priority, 10);
  t.false('ansible_group_priority' in inv.groups.get('prio')!.vars);
  t.deepEqual(sortGroups([...inv.groups.values()]).map((g) => `${g.name}:${g.depth}`).slice(0, 3), ['all:0', 'aaa:1', 'alpha:1']);
});

test('magic vars: inventory_hostname, group_names, groups, inventory_file', async (t) => {
  const inv = await loadInventory(sourcesOf('openshift'));
  const v = hostVars(inv, 'master2.example.com');
  t.is(v.inventory_hostname, 'master2.example.com');
  t.is(v.inventory_hostname_short, 'master2');
  t.deepEqual(v.group_names, ['OSEv3', 'etcd', 'masters', 'nodes']);
  t.deepEqual(groupNames(inv, 'bastion.example.com'), ['ungrouped']);
  const groups = v.groups as Record<string, string[]>;
  t.deepEqual(groups.masters, ['master1.example.com', 'master2.example.com', 'master3.example.com']);
  t.deepEqual(groups.new_nodes, []);
  t.is(groups.all!.length, 8);
  t.is(v.inventory_file, fixture('openshift', 'hosts'));
  t.is(v.inventory_dir, fixture('openshift').replace(/\/$/, ''));
  // [OSEv3:vars] values typed as Ansible reads them
  t.is(v.openshift_release, '3.11');
  t.is(v.containerized, false);
  t.is(v.ansible_become, 'true');
  t.is(v.openshift_master_api_port, 443); // group_vars/OSEv3.yml beats [OSEv3:vars]
  t.deepEqual(hostVars(inv, 'node01.example.com').node_labels, { region: 'primary', zone: 'east' });
  t.is(hostVars(inv, 'node01.example.com').ansible_port, 2222);
  t.is(hostVars(inv, 'lb.example.com').ansible_port, 2200);
});

test('a host under several groups collects inline vars from each', async (t) => {
  const inv = await loadInventory(sourcesOf('microshift'));
  const v = hostVars(inv, 'edge-01');
  t.is(v.node_role, 'leader'); // declared later under `primary`
  t.is(v.extra_primary_var, true);
  t.is(v.ansible_host, '192.168.122.11');
  t.is(v.ansible_become, true); // YAML 1.1 `yes`
  t.is(hostVars(inv, 'prometheus.example.com').ansible_port, 9443);
});

test('implicit localhost gets all-group vars and a local connection, unknown hosts are refused', async (t) => {
  const inv = await loadInventory(sourcesOf('microshift'));
  const v = hostVars(inv, 'localhost');
  t.is(v.ansible_connection, 'local');
  t.is(v.ansible_user, 'redhat');
  t.deepEqual(v.group_names, []);
  t.false((v.groups as Record<string, string[]>).all!.includes('localhost'));
  t.throws(() => hostVars(inv, 'nope'), { instanceOf: BadInputError, message: /unknown host 'nope'/ });
});

test('group_vars folders merge files in name order and skip other extensions', async (t) => {
  const inv = await loadInventory(sourcesOf('kubespray'));
  const v = hostVars(inv, 'node3');
  t.is(v.calico_vxlan_mode, 'Always');
  t.is(v.kube_proxy_mode, 'ipvs');
  t.is(v.container_manager, 'containerd');
  t.deepEqual(v.upstream_dns_servers, ['8.8.8.8', '8.8.4.4']);
  t.false(inv.varsLayers[0]!.files.some((f) => f.endsWith('notes.txt')));
  t.deepEqual(
    inv.varsLayers[0]!.files.map((f) => f.slice(fixture('kubespray').length + 1)),
    ['group_vars/all/all.yml', 'group_vars/all/containerd.yml', 'group_vars/k8s_cluster/k8s-cluster.yml', 'group_vars/k8s_cluster/k8s-net-calico.yml'],
  );
  // returned vars are copies: changing them does not leak into the inventory
  (v.upstream_dns_servers as string[]).push('1.1.1.1');
  t.deepEqual(hostVars(inv, 'node3').upstream_dns_servers, ['8.8.8.8', '8.8.4.4']);
});
