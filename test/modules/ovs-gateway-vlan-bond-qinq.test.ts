// ovs_gateway (ovs backend) on an 802.1ad (QinQ) VLAN on a kernel-made bond, from probe output recorded on the VM
// host of test/vm/vlan-bond-uplink.test.ts (the 802.1ad test, HW_RECORD_DIR): bond0.100 an 802.1ad VLAN on the
// kernel's active-backup bond0 (eth1+eth2), static IPv4 and IPv6 with a default route of each, the far end an
// 802.1ad VLAN too; then the host after the move (bond0.100 br-ex's port, the addresses on br-ex).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseEnvText, parsePrev } from '../../src/modules/ovs_gateway/env.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';

const probe = (n: string) => parseGatewayProbe(readFileSync(new URL(`../../../src/modules/ovs_gateway/cases/${n}.txt`, import.meta.url), 'utf8'));
const args = (backend = 'ovs') => ovsGatewayArgs.parse({ mode: 'uplink', datapath_type: 'system', backend });
const VLAN_ENV = { UPLINK: 'bond0.100', KIND: 'vlan', VLAN_ID: '100', VLAN_PROTO: '802.1ad', VLAN_PARENT: 'bond0', BOND_OPTS: 'mode active-backup miimon 100 updelay 200 primary eth1', MEMBERS: 'eth1 eth2' };

test('an 802.1ad VLAN on a kernel-made bond, fresh: the VLAN with its bond moves, the protocol recorded for the boot oneshot and the rollback', (t) => {
  const s = probe('probe-vlan-kbond-qinq-fresh');
  t.is(s.links.find((l) => l.name === 'bond0.100')!.info!.protocol, '802.1ad');
  const m = (planUplink(s, args()).filter(isTxnChange) as TxnChange[])[0]!;
  t.regex(m.summary, /^move bond0\.100 into br-ex/);
  t.like(parseEnvText(m.txn.env!), { ...VLAN_ENV, ADDRS: '172.31.221.11/24 fd21:100::11/64' });
  t.like(parsePrev(m.txn.prev!)?.device, { kind: 'vlan', id: 100, protocol: '802.1ad', parent: 'bond0' });
});

test('the same host with the nm backend: moved too (static, active-backup; test/vm/nm-vlan-bond-uplink.test.ts) - the bond under ovs-parent-bond0, ovs-if-phys0 with vlan.protocol 802.1ad', (t) => {
  const m = (planUplink(probe('probe-vlan-kbond-qinq-fresh'), args('nm')).filter(isTxnChange) as TxnChange[])[0]!;
  t.like(parseEnvText(m.txn.env!), { ...VLAN_ENV, BACKEND: 'nm' });
  t.regex(m.txn.nm!, /type bond con-name ovs-parent-bond0 .*bond\.options mode=active-backup,miimon=100,updelay=200,primary=eth1 /);
  t.regex(m.txn.nm!, /type vlan con-name ovs-if-phys0 .*vlan\.parent bond0 vlan\.id 100 vlan\.protocol 802\.1ad /);
});

test('an 802.1ad VLAN on a kernel-made bond, moved by the ovs backend: converged, nothing to do', (t) => {
  const s = probe('probe-vlan-kbond-qinq-moved');
  t.deepEqual(s.bridges.find((b) => b.name === 'br-ex')?.ports, ['bond0.100']);
  t.is(s.links.find((l) => l.name === 'bond0.100')!.info!.protocol, '802.1ad');
  t.like(parseEnvText(s.files['/etc/hostwire/configure-ovs/br-ex.env']!), VLAN_ENV);
  t.deepEqual(planUplink(s, args()).filter(isTxnChange), []);
});
