// community.general.nmcli's settings, change detection and commands over profiles recorded on a lab
// host (src/modules/nm_connection/cases/nmcli-*.json, where ansible-playbook's results are compared),
// bonds and VLANs by plan (nspawn hosts have no bonding/8021q), and the refusals.
import test from 'ava';
import { getModule } from '../../src/modules/all.js';
import { readNm } from '../../src/modules/nm_connection/nm_connection.js';
import { nmcliRefusals, type NmcliArgs } from '../../src/modules/nm_connection/nmcli-args.js';
import { planNmcli, type NmcliPlan } from '../../src/modules/nm_connection/nmcli-plan.js';
import { loadCase } from './net-cases.js';

const mod = getModule('nmcli')!;
const args = (a: Record<string, unknown>) => mod.args.parse(a) as NmcliArgs;
const recorded = (name: string) => {
  const c = loadCase('nm_connection', name) as { stdout: string; args: Record<string, unknown> };
  return { state: readNm(c.stdout, String(c.args.conn_name)), args: args(c.args) };
};
const words = (p: NmcliPlan | string) => (typeof p === 'string' ? p : p.steps.map((s) => s.words.join(' ')));

test('a new connection: con add with the settings the module sets, in its order', (t) => {
  const { state, args: a } = recorded('nmcli-ethernet-new');
  t.deepEqual(words(planNmcli(state, a)), [
    'con add type ethernet con-name eth-s8b connection.interface-name v1p connection.autoconnect yes ipv4.ignore-auto-dns no ipv4.ignore-auto-routes no ' +
      'ipv4.never-default no ipv4.method disabled ipv4.may-fail yes ipv6.ignore-auto-dns no ipv6.ignore-auto-routes no ipv6.method disabled',
  ]);
  // An ethernet given mtu or DNS is brought up after it is added (the module's create_connection_up).
  t.deepEqual(words(planNmcli(state, args({ conn_name: 'eth-s8b', type: 'ethernet', mtu: 1400, state: 'present' }))).at(-1), 'con up id eth-s8b');
});

test('an existing connection: modified with the whole setting list only when a set value differs', (t) => {
  const mod1 = recorded('nmcli-bridge-modify');
  const plan = planNmcli(mod1.state, mod1.args) as NmcliPlan;
  t.deepEqual(plan.diff?.before['ipv4.gateway'], '192.0.2.1');
  t.deepEqual(plan.diff?.after['ipv4.gateway'], '192.0.2.254');
  t.is(plan.diff?.before['bridge.stp'], 'no');
  t.deepEqual(words(plan), [
    'con modify 33cb1c80-defd-42dc-9574-647407f4c2ac connection.interface-name br-s8n connection.autoconnect yes ipv4.addresses 192.0.2.10/24 ipv4.ignore-auto-dns no ' +
      'ipv4.gateway 192.0.2.254 ipv4.ignore-auto-routes no ipv4.never-default no ipv4.method manual ipv4.may-fail yes ipv6.ignore-auto-dns no ipv6.ignore-auto-routes no ' +
      'bridge.ageing-time 300 bridge.forward-delay 15 bridge.hello-time 2 bridge.max-age 20 bridge.priority 128 bridge.stp yes',
  ]);
  for (const same of ['nmcli-bridge-unchanged', 'nmcli-ethernet-unchanged']) {
    const r = recorded(same);
    t.deepEqual(words(planNmcli(r.state, r.args)), [], same);
  }
  // Addresses are compared in order (the first is the source address): a swap is a change.
  const swapped = recorded('nmcli-ethernet-no-type');
  t.is(words(planNmcli(swapped.state, swapped.args)).length, 1);
});

test('absent: down (its failure ignored) then delete, by UUID', (t) => {
  const r = recorded('nmcli-absent');
  const plan = planNmcli(r.state, r.args) as NmcliPlan;
  t.deepEqual(plan.steps.map((s) => [s.words.join(' '), s.checked]), [['con down b85eda12-38eb-4958-83a5-e6e663ce0f48', false], ['con del b85eda12-38eb-4958-83a5-e6e663ce0f48', true]]);
});

test('bonds, bond slaves and VLANs by plan: the module\'s bond aliases, slave type, vlan settings', (t) => {
  const none = { conn: undefined, settings: {} };
  t.deepEqual(words(planNmcli(none, args({ conn_name: 'bond0', type: 'bond', mode: '802.3ad', miimon: 100, xmit_hash_policy: 'layer3+4', method4: 'disabled', method6: 'disabled', state: 'present' }))), [
    'con add type bond con-name bond0 connection.interface-name bond0 connection.autoconnect yes ipv4.ignore-auto-dns no ipv4.ignore-auto-routes no ipv4.never-default no ' +
      'ipv4.method disabled ipv4.may-fail yes ipv6.ignore-auto-dns no ipv6.ignore-auto-routes no ipv6.method disabled miimon 100 mode 802.3ad +bond.options xmit_hash_policy=layer3+4',
  ]);
  t.deepEqual(words(planNmcli(none, args({ conn_name: 'bond0-p1', type: 'bond-slave', ifname: 'eth1', master: 'bond0', state: 'present' }))), [
    'con add type bond-slave con-name bond0-p1 connection.interface-name eth1 connection.autoconnect yes connection.master bond0 connection.slave-type bond',
  ]);
  t.deepEqual(words(planNmcli(none, args({ conn_name: 'vlan10', type: 'vlan', vlanid: 10, vlandev: 'bond0', ip4: '192.0.2.7/24', state: 'present' }))), [
    'con add type vlan con-name vlan10 connection.interface-name vlan10 connection.autoconnect yes ipv4.addresses 192.0.2.7/24 ipv4.ignore-auto-dns no ipv4.ignore-auto-routes no ' +
      'ipv4.never-default no ipv4.method manual ipv4.may-fail yes ipv6.ignore-auto-dns no ipv6.ignore-auto-routes no vlan.id 10 vlan.parent bond0',
  ]);
  // An existing bond reads its mode and miimon from bond.options.
  const bond = { conn: { name: 'bond0', uuid: 'u', type: 'bond', device: 'bond0', active: true, state: 'activated', filename: '/etc/x' }, settings: { 'connection.type': 'bond', 'connection.autoconnect': 'yes', 'bond.options': 'miimon=100,mode=802.3ad', 'ipv4.method': 'disabled', 'ipv4.ignore-auto-dns': 'no', 'ipv4.ignore-auto-routes': 'no', 'ipv4.never-default': 'no', 'ipv4.may-fail': 'yes', 'ipv6.ignore-auto-dns': 'no', 'ipv6.ignore-auto-routes': 'no', 'ipv6.method': 'disabled' } };
  t.deepEqual(words(planNmcli(bond, args({ conn_name: 'bond0', type: 'bond', mode: '802.3ad', miimon: 100, method4: 'disabled', method6: 'disabled', state: 'present' }))), []);
  t.is(words(planNmcli(bond, args({ conn_name: 'bond0', type: 'bond', mode: 'active-backup', miimon: 100, method4: 'disabled', method6: 'disabled', state: 'present' }))).length, 1);
});

test('what is not mapped is refused by name; a name the module does not know is a schema error', (t) => {
  t.regex(nmcliRefusals(args({ conn_name: 'x', state: 'present', routes4: ['10.0.0.0/8 192.0.2.1'], vxlan_id: 5 }))!, /^routes4, vxlan_id: not built in hostwire's nmcli/);
  t.regex(nmcliRefusals(args({ conn_name: 'x', state: 'present', type: 'team' }))!, /type: team is not built/);
  t.is(nmcliRefusals(args({ conn_name: 'x', state: 'present', type: 'bridge', stp: false })), undefined);
  t.false(mod.args.safeParse({ conn_name: 'x', state: 'present', bogus: 1 }).success);
  t.false(mod.args.safeParse({ conn_name: 'x', state: 'present', gw4: '192.0.2.1', never_default4: true }).success, 'mutually exclusive as the module declares');
  t.false(mod.args.safeParse({ conn_name: 'x\ny', state: 'present' }).success, 'no control characters');
  t.is(words(planNmcli({ conn: undefined, settings: {} }, args({ conn_name: 'x', state: 'present' }))), 'type is required to create the connection x (it does not exist)');
});
