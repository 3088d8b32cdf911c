// modprobe and openvswitch_db on a real lab host. An nspawn host has no /proc/modules: modprobe fails
// there exactly as community.general's does (its load/persist path is proven by recorded cases from a
// VM host, where ansible-playbook converged the same module). openvswitch_db (the openvswitch
// collection's names over ovs_db) converges a key of a map column, re-runs with changed=0, --check
// predicts without touching OVSDB, and refuses what it cannot map.
import test from 'ava';
import { convergePlay, labModuleTest } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const lab = labModuleTest(testLabName(import.meta.url));

const MODPROBE = `
- hosts: all
  gather_facts: false
  tasks:
    - name: load
      community.general.modprobe: { name: br_netfilter, persistent: present }
      ignore_errors: true
`;

test.serial('modprobe fails on a host without /proc/modules as the module does, touching nothing', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  for (const check of [false, true]) {
    const run = await play(`modprobe-${check}`, MODPROBE, { check });
    t.like(run.result('load'), { outcome: 'failed', msg: "[Errno 2] No such file or directory: '/proc/modules'", name: 'br_netfilter', params: '', state: 'present' });
  }
  t.is(await host.sh('ls /etc/modules-load.d /etc/modprobe.d | grep -c br_netfilter || true'), '0\n', 'no file written');
});

const DB = (value: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: key
      openvswitch.openvswitch.openvswitch_db:
        table: Bridge
        record: br-mp
        col: other_config
        key: disable-in-band
        value: ${value}
      register: r
    - name: map without key
      openvswitch_db: { table: Bridge, record: br-mp, col: other_config, value: x }
      ignore_errors: true
    - name: read
      openvswitch_db: { table: Bridge, record: br-mp, col: other_config, state: read }
      ignore_errors: true
`;

test.serial('openvswitch_db converges a map key, no-op again, --check predicts, refuses what has no mapping', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  await host.sh('ovs-vsctl --may-exist add-br br-mp -- set Bridge br-mp datapath_type=netdev');
  const read = () => host.sh('ovs-vsctl get Bridge br-mp other_config');
  const { first, again } = await convergePlay(t, play, 'db', DB('"true"'), { state: read });
  t.like(first.result('key'), { outcome: 'changed', output: { 'disable-in-band': '' } });
  t.is(await read(), '{disable-in-band="true"}\n');
  t.like(first.result('map without key'), { outcome: 'failed', msg: 'missing required arguments: key for map type of column' });
  t.like(first.result('read'), { outcome: 'failed' });
  t.regex(first.result('read').msg, /state: read is not built/);
  t.like(again.result('key'), { outcome: 'ok', changed: false, commands: [] });
  const checked = await play('db-check', DB('"false"'), { check: true, diff: true });
  t.like(checked.result('key'), { outcome: 'changed' });
  t.is(await read(), '{disable-in-band="true"}\n', '--check left OVSDB alone');
});

const BRIDGE = (owner: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: bridge
      openvswitch.openvswitch.openvswitch_bridge:
        bridge: br-mpb
        fail_mode: secure
        external_ids: { owner: ${owner} }
        set: Bridge br-mpb datapath_type=netdev
    - name: fake bridge
      openvswitch_bridge: { bridge: br-mpf, parent: br-mpb, vlan: 10 }
      ignore_errors: true
`;

test.serial('openvswitch_bridge converges a bridge, no-op again, --check predicts, refuses a fake bridge', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  const read = () => host.sh('ovs-vsctl get Bridge br-mpb datapath_type fail_mode external_ids 2>&1 || true');
  const { first, again } = await convergePlay(t, play, 'bridge', BRIDGE('mp'), { state: read });
  t.like(first.result('bridge'), { outcome: 'changed' });
  t.is(await read(), 'netdev\nsecure\n{owner=mp}\n');
  t.like(first.result('fake bridge'), { outcome: 'failed' });
  t.regex(first.result('fake bridge').msg, /parent\/vlan \(a fake bridge\) is not built/);
  t.like(again.result('bridge'), { outcome: 'ok', changed: false, commands: [] });
  const checked = await play('bridge-check', BRIDGE('other'), { check: true });
  t.like(checked.result('bridge'), { outcome: 'changed' });
  t.is(await read(), 'netdev\nsecure\n{owner=mp}\n', '--check left the bridge alone');
});
