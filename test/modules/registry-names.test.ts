// Which written module names run a native module: as ansible-core 2.14 resolves them (short name,
// ansible.legacy./ansible.builtin., the collection ansible_builtin_runtime.yml routes the short name to).
import test from 'ava';
import { isKnownModule } from '../../src/modules/all.js';

test('short, ansible.legacy. and ansible.builtin. names of a core module are native', (t) => {
  for (const n of ['stat', 'ansible.legacy.stat', 'ansible.builtin.stat', 'ansible.builtin.dnf', 'ansible.builtin.systemd_service']) t.true(isKnownModule(n), n);
});

test("a routed module is native under its collection's name and ansible.builtin., not under another collection", (t) => {
  for (const n of ['community.general.modprobe', 'ansible.builtin.modprobe', 'ansible.posix.mount', 'community.general.nmcli', 'openvswitch.openvswitch.openvswitch_port', 'ansible.posix.sysctl']) t.true(isKnownModule(n), n);
  for (const n of ['ansible.posix.modprobe', 'community.general.mount', 'foo.bar.stat', 'community.general.stat', 'openvswitch.openvswitch.ovs_port']) t.false(isKnownModule(n), n);
});

test("hostwire's own modules answer to their short and ansible.legacy. names only", (t) => {
  t.true(isKnownModule('ovs_gateway'));
  t.true(isKnownModule('ansible.legacy.ip_route'));
  for (const n of ['ansible.builtin.ovs_gateway', 'ansible.builtin.nm_connection', 'hostwire.net.ip_route']) t.false(isKnownModule(n), n);
  t.false(isKnownModule('no_such_module'));
});
