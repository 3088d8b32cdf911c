// An error OVS reports in its database (not as ovs-vsctl's exit code) stops the transaction: on the
// lab's kernel the `system` datapath does not exist, so add-br "succeeds" while ovs-vswitchd cannot
// open the bridge or its port. The move must stop there, say what OVS said, and roll back to
// exactly the state before the run (the bridge row removed from OVS's database too).
import test from 'ava';
import { failure, snapshot, uplinkLab } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

test('an OVS port error (no kernel datapath) stops the move and rolls back completely', async (t) => {
  const l = await uplinkLab(t, testLabName(import.meta.url));
  const before = await snapshot(l);
  const r = await l.role({ configure_ovs_datapath_type: 'system' });
  t.is(r.summary.exitCode, 2, failure(r));
  t.regex(failure(r), /rolled back after [\d.]+ s: applying br-ex failed: OVS interface eth0: error .+, ofport .+, mtu .+ \(wanted mtu 1500\); ovs-vswitchd: .*datapath/);
  t.log(/applying br-ex failed: [^\n]*/.exec(failure(r))?.[0]);
  t.is(await snapshot(l), before);
  t.is((await l.host.sh('ovs-vsctl list-br')).trim(), '', 'no bridge left in the OVS database');
});
