// VM tier (npm run test:vm), issue 20: the nm backend moves an 802.3ad (LACP) bond (lacp_rate fast,
// xmit_hash_policy layer3+4, static IPv4; the far end a second VM bonding the wires, lacp-lab.ts) onto br-ex
// on the kernel datapath as NM's bond profile under ovs-port-phys0 with the same options. An injected
// failure (a gateway nothing answers) rolls back within the window to exactly the bond it had, aggregated
// with its partner again, NM's view as before; the move keeps SSH on the same address and the partner; a
// second run and --check change nothing; a wire cut at both ends is carried by the other port.
import test from 'ava';
import { sleep } from '../../src/lab/run.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, BOND_SNAPSHOT, CONFIRM_TIMEOUT, esc, failure, journalSeconds, type VmUplinkLab } from './bond-lab.js';
import { lacpLab, wireCutDrill } from './lacp-lab.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';

const LAB = 'nmbond23l';
const NM_DEVICES = 'nmcli -t -f DEVICE,TYPE,STATE device | grep -v "^lo:" | sort';

test.serial('nm backend, LACP bond uplink on a VM: rollback exactly, move with the options kept, idempotent, wire cut', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  let at = Date.now();
  const lab = await lacpLab(t, LAB, { nmOvs: true });
  const l: VmUplinkLab = { ...lab.l, role: (vars = {}, check = false) => lab.l.role({ configure_ovs_backend: 'nm', ...vars }, check) };
  const partnered = async () => {
    let bond = '';
    for (let i = 0; i < 20 && !bond.includes(lab.swMac); i++) {
      bond = await l.sh('cat /proc/net/bonding/bond0');
      if (!bond.includes(lab.swMac)) await sleep(2000);
    }
    return bond;
  };
  step('VMs up, switch and host bonded', at);
  const before = await l.sh(BOND_SNAPSHOT);
  const nmBefore = await l.sh(NM_DEVICES);

  at = Date.now();
  const wrong = l.gw.replace(/\.\d+$/, '.254');
  const bad = await l.role({ configure_ovs_gateway: wrong });
  step('injected failure run', at);
  t.is(bad.summary.exitCode, 2, failure(bad));
  const rolled = /rolled back after ([\d.]+) s: connectivity check failed: (\S+) does not answer through br-ex/.exec(failure(bad));
  t.is(rolled?.[2], wrong, failure(bad));
  const apply = journalSeconds(failure(bad), /configure-ovs\[\d+\]: apply br-ex: uplink bond0/);
  const rollingBack = journalSeconds(failure(bad), /configure-ovs\[\d+\]: rolling back: connectivity check failed/);
  t.true(apply !== undefined && rollingBack !== undefined && rollingBack - apply < CONFIRM_TIMEOUT, `apply at ${apply}, rolling back at ${rollingBack}:\n${failure(bad)}`);
  t.log(`injected failure: rolling back ${(rollingBack! - apply!).toFixed(1)} s after the apply began (window ${CONFIRM_TIMEOUT} s), done ${rolled?.[1]} s after the transaction started`);
  t.is(await l.sh(BOND_SNAPSHOT), before, 'the LACP bond, its address and routes exactly as before');
  t.is(await l.sh(NM_DEVICES), nmBefore, 'NM: the ports unmanaged again');
  t.true((await partnered()).includes(lab.swMac), 'aggregated with the switch again after the rollback');

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move);
  t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(l.gw)} dev br-ex proto static metric 48 *$`, 'm'));
  t.regex(await l.sh('nmcli -t -f NAME,TYPE,DEVICE connection show --active | sort'), /^ovs-if-phys0:bond:bond0\n[\s\S]*^ovs-slave-eth1:802-3-ethernet:eth1\novs-slave-eth2:802-3-ethernet:eth2$/m);
  t.deepEqual((await l.sh('nmcli -g bond.options connection show ovs-if-phys0')).trim().split(',').sort(),
    ['lacp_rate=fast', 'miimon=100', 'mode=802.3ad', 'xmit_hash_policy=layer3+4'], 'NM\'s profile has the live bond\'s options');
  const bond = await partnered();
  t.regex(bond, /Bonding Mode: IEEE 802\.3ad Dynamic link aggregation\nTransmit Hash Policy: layer3\+4/);
  t.regex(bond, /LACP rate: fast/);
  t.true(bond.includes(lab.swMac), `the LACP partner is still the switch after the move:\n${bond}`);

  at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, await l.sh(BOND_SNAPSHOT));
  step('second run and --check', at);
  const cut = await wireCutDrill(t, { ...lab, l }, LAB);
  t.log(`wire cut under NM's LACP bond profile: ${cut.lost} of 300 lost, longest gap ${cut.gap.toFixed(2)} s`);
});
