// `hostwire init` without prompts: answers -> inventory, group_vars, playbook, subnets preview.
// The generated inventory is loaded back with hostwire's own inventory reader.
import test from 'ava';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { checkMtu, checkSubnetLen, generate, parseHosts, parseType, previewSubnets, type InitAnswers } from '../../src/init/index.js';
import { hostVars, loadInventory, selectHosts } from '../../src/engine/inventory/index.js';
import { BadInputError } from '../../src/errors.js';

const base: InitAnswers = { type: 'flannel', hosts: parseHosts(['10.0.0.11,10.0.0.12,n3=10.0.0.13']), user: 'root', network: '10.244.0.0/16', subnetLen: 24, firewallSources: [], uplink: false };

async function load(a: InitAnswers) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-init-'));
  const g = generate(a, { repoDir: '/opt/hostwire', outDir: dir });
  for (const f of g.files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.content);
  }
  const inv = await loadInventory([path.join(dir, 'inventory.yml')]);
  rmSync(dir, { recursive: true, force: true });
  return { g, inv, dir };
}

test('hosts: IPs get node names, name=IP and DNS names keep theirs; duplicates fail', (t) => {
  t.deepEqual(parseHosts(['10.0.0.5', 'db=10.0.0.6 web1.example.com']), [
    { name: 'node1', address: '10.0.0.5' }, { name: 'db', address: '10.0.0.6' }, { name: 'web1', address: 'web1.example.com' },
  ]);
  t.throws(() => parseHosts(['a=10.0.0.1,a=10.0.0.2']), { instanceOf: BadInputError, message: /'a' is given twice/ });
  t.throws(() => parseHosts(['bad_name=10.0.0.1']), { message: /'bad_name' is not a valid host name/ });
});

test('flags are checked with messages that say what was expected', (t) => {
  t.is(parseType('host-gw'), 'flannel');
  t.throws(() => parseType('calico'), { message: /--type: expected microshift, flannel or ovn, got 'calico'/ });
  t.throws(() => checkMtu('70000'), { message: /between 1280 and 9216/ });
  t.is(checkMtu('auto'), undefined);
  t.throws(() => checkSubnetLen('12', '10.244.0.0/16'), { message: /between 17 and 30 for 10\.244\.0\.0\/16, got '12'/ });
});

test('flannel cluster: groups, vars the roles read, playbook import, command', async (t) => {
  const { g, inv } = await load({ ...base, key: '/k/id', mtu: 1450, firewallSources: ['192.168.5.0/24'] });
  t.deepEqual(selectHosts(inv, 'masters'), ['node1']);
  t.deepEqual(selectHosts(inv, 'nodes'), ['node1', 'node2', 'n3']);
  t.deepEqual(selectHosts(inv, 'etcd'), ['node1']);
  const v = hostVars(inv, 'n3');
  t.like(v, { ansible_host: '10.0.0.13', ansible_user: 'root', ansible_ssh_private_key_file: '/k/id', sdn: 'flannel-hostgw', cluster_network: '10.244.0.0/16', flannel_hostgw_subnet_len: 24, flannel_hostgw_mtu: 1450, cni_config_mtu: 1450 });
  t.deepEqual(v.firewalld_trusted_extra_sources, ['192.168.5.0/24']);
  t.deepEqual(YAML.parse(g.files.find((f) => f.path === 'site.yml')!.content), [{ import_playbook: '/opt/hostwire/playbooks/site.yml' }]);
  t.regex(g.command, /^hostwire run \S+\/site\.yml -i \S+\/inventory\.yml --roles-path \/opt\/hostwire\/roles$/);
});

test('MicroShift single node: firewalld sources include MicroShift\'s, uplink mode, its playbook', async (t) => {
  const { g, inv } = await load({ ...base, type: 'microshift', hosts: parseHosts(['10.0.0.5']), network: '10.42.0.0/16', firewallSources: ['169.254.169.1'], uplink: true, mtu: 1400 });
  t.deepEqual(selectHosts(inv, 'microshift'), ['node1']);
  t.like(hostVars(inv, 'node1'), { microshift_configure_ovs_mode: 'uplink', microshift_mtu: 1400 });
  t.deepEqual(hostVars(inv, 'node1').firewalld_trusted_sources, ['10.42.0.0/16', '169.254.169.1']);
  t.regex(g.files.find((f) => f.path === 'site.yml')!.content, /import_playbook: \/opt\/hostwire\/playbooks\/microshift\.yml/);
});

test('OVN cluster with F5 ramp nodes', async (t) => {
  const { inv } = await load({ ...base, type: 'ovn', subnetLen: 23, ramp: { hosts: parseHosts(['10.0.0.30'], 'ramp'), vip: '10.0.0.100' } });
  t.deepEqual(selectHosts(inv, 'f5_ramp'), ['ramp1']);
  t.false(selectHosts(inv, 'nodes').includes('ramp1'), 'an extra ramp host runs no pods');
  t.like(hostVars(inv, 'ramp1'), { ansible_host: '10.0.0.30', f5_ramp_vip: '10.0.0.100', sdn: 'ovn', pod_subnet_len: 23, pod_subnet_style: 'openshift' });
});

test('a ramp node given by a cluster node\'s address is that node (role f5_ramp_node\'s usual case)', async (t) => {
  const { inv } = await load({ ...base, ramp: { hosts: parseHosts(['10.0.0.12'], 'ramp'), vip: '10.0.0.100', f5Ip: '10.0.0.2' } });
  t.deepEqual(selectHosts(inv, 'f5_ramp'), ['node2']);
  t.deepEqual(selectHosts(inv, 'all').length, 3, 'no extra host');
  t.like(hostVars(inv, 'node2'), { f5_ramp_vip: '10.0.0.100', f5_ramp_f5_ip: '10.0.0.2' });
});

test('subnet preview uses the sdn allocators', (t) => {
  t.deepEqual(previewSubnets(base).rows.map((r) => r.subnet), ['10.244.1.0/24', '10.244.2.0/24', '10.244.3.0/24'], 'flannel skips the network\'s first subnet');
  t.deepEqual(previewSubnets({ ...base, type: 'ovn', subnetLen: 23 }).rows.map((r) => r.subnet), ['10.244.0.0/23', '10.244.2.0/23', '10.244.4.0/23']);
  const tiny = previewSubnets({ ...base, network: '10.1.0.0/28', subnetLen: 30 });
  t.is(tiny.rows[2]!.subnet, '10.1.0.12/30');
  const full = previewSubnets({ ...base, network: '10.1.0.0/28', subnetLen: 30, hosts: parseHosts(['10.0.0.1,10.0.0.2,10.0.0.3,10.0.0.4']) });
  t.is(full.rows[3]!.subnet, '(no subnet left)');
});
