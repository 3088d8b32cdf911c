// Connection settings from merged host vars, including jump hosts parsed from ssh args.
import test from 'ava';
import { BadInputError } from '../../src/errors.js';
import { connectionSettings, hostVars, loadInventory, parseSshArgs } from '../../src/engine/inventory/index.js';
import { sourcesOf } from './helpers.js';

test('microshift hosts: ProxyJump, known hosts, key file, port from host_vars', async (t) => {
  const inv = await loadInventory(sourcesOf('microshift'));
  const c = connectionSettings(hostVars(inv, 'edge-02'));
  t.like(c, {
    host: '192.168.122.12',
    port: 2202,
    user: 'redhat',
    connection: 'ssh',
    become: true,
    proxyJump: { host: 'bastion.example.com', port: 2022, user: 'core' },
    knownHostsFile: '/dev/null',
    strictHostKeyChecking: 'accept-new',
  });
  t.regex(c.privateKeyFile!, /^\/.*\/\.ssh\/edge_ed25519$/);
  t.false(c.privateKeyFile!.startsWith('~'));
  const edge3 = connectionSettings(hostVars(inv, 'edge-03'));
  t.is(edge3.host, 'edge-03'); // no ansible_host: the inventory name
  t.is(edge3.port, 22);
  t.is(connectionSettings(hostVars(inv, 'prometheus.example.com')).connection, 'local');
  t.is(connectionSettings(hostVars(inv, 'localhost')).connection, 'local');
});

test('openshift hosts: ansible_ssh_user alias, become as string, port from host:port', async (t) => {
  const inv = await loadInventory(sourcesOf('openshift'));
  t.like(connectionSettings(hostVars(inv, 'master1.example.com')), { host: 'master1.example.com', user: 'root', become: true, port: 22 });
  t.like(connectionSettings(hostVars(inv, 'lb.example.com')), { user: 'admin', port: 2200 });
  t.like(connectionSettings(hostVars(inv, 'bastion.example.com')), { host: '192.0.2.10', user: 'cloud-user', become: false });
});

test('ssh args: -J, -oKey=Value, -o Key Value, ssh:// jump URIs', (t) => {
  t.deepEqual(parseSshArgs('-J ops@jump:2200', {}).proxyJump, { host: 'jump', port: 2200, user: 'ops' });
  t.deepEqual(parseSshArgs('-Jops@jump', {}).proxyJump, { host: 'jump', port: 22, user: 'ops' });
  t.deepEqual(parseSshArgs('-oProxyJump=ssh://a@[2001:db8::5]:2222', {}).proxyJump, { host: '2001:db8::5', port: 2222, user: 'a' });
  t.deepEqual(parseSshArgs('-o "StrictHostKeyChecking no" -o ControlMaster=auto -C', {}), { strictHostKeyChecking: 'no' });
  t.is(parseSshArgs('-o ProxyJump=jump', {}).proxyJump!.host, 'jump');
});

test('bad connection vars are BadInputError naming the host and the var', (t) => {
  const base = { inventory_hostname: 'web1' };
  t.throws(() => connectionSettings({ ...base, ansible_ssh_common_args: '-o ProxyCommand="ssh -W %h:%p -q bastion"' }), {
    instanceOf: BadInputError,
    message: /^host web1: ansible_ssh_common_args uses ProxyCommand.*expected -o ProxyJump=/,
  });
  t.throws(() => connectionSettings({ ...base, ansible_port: 'ssh' }), { instanceOf: BadInputError, message: /ansible_port is "ssh"; expected a port number/ });
  t.throws(() => connectionSettings({ ...base, ansible_port: 70000 }), { instanceOf: BadInputError });
  t.throws(() => connectionSettings({ ...base, ansible_become: 'maybe' }), { instanceOf: BadInputError, message: /ansible_become is "maybe"; expected a boolean/ });
  t.throws(() => connectionSettings({ ...base, ansible_connection: 'winrm' }), { instanceOf: BadInputError, message: /expected ssh or local/ });
  t.throws(() => connectionSettings({ ...base, ansible_ssh_common_args: '-J a@b,c@d' }), { instanceOf: BadInputError, message: /several hops/ });
  t.throws(() => connectionSettings({ ...base, ansible_ssh_common_args: '-o StrictHostKeyChecking=perhaps' }), { instanceOf: BadInputError });
  t.throws(() => connectionSettings({ ...base, ansible_ssh_common_args: '-o "unterminated' }), { instanceOf: BadInputError, message: /cannot be split/ });
});

test('become user, key file aliases and host key checking var', (t) => {
  const c = connectionSettings({
    inventory_hostname: 'h',
    ansible_become: 'yes',
    ansible_become_user: 'postgres',
    ansible_private_key_file: '/keys/id',
    ansible_host_key_checking: false,
  });
  t.like(c, { become: true, becomeUser: 'postgres', privateKeyFile: '/keys/id', strictHostKeyChecking: 'no' });
});

test('ansible_timeout (or ansible_ssh_timeout) bounds the SSH handshake', (t) => {
  t.is(connectionSettings({ inventory_hostname: 'vm1', ansible_timeout: 60 }).connectTimeoutMs, 60_000);
  t.is(connectionSettings({ inventory_hostname: 'vm1', ansible_ssh_timeout: '15' }).connectTimeoutMs, 15_000);
  t.is(connectionSettings({ inventory_hostname: 'vm1' }).connectTimeoutMs, undefined);
  t.throws(() => connectionSettings({ inventory_hostname: 'vm1', ansible_timeout: 'soon' }), { instanceOf: BadInputError, message: /host vm1: ansible_timeout is 'soon'; expected a number of seconds/ });
});
