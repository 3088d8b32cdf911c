// VM tier (npm run test:vm), issue 20: the nm backend moves an active-backup bond on a host with IPv6 disabled
// (net.ipv6.conf.all/default.disable_ipv6 1, an IPv4-only node): NM makes the bond again with IPv6 off, so the
// link-local that carries the failover's only word to the far end (an unsolicited NA: the bond holds no IPv4,
// br-ex does) would be missing. The staged script gives the bond alone IPv6 back (accept_ra 0: the link-local,
// nothing else); br-ex and the rest stay without IPv6. Proven by the failover drill (one end of the active
// port's wire cut, the lab's bridge must learn the MAC on the other port), then the counter-proof: the bond's
// IPv6 turned off again by hand (as it was before the fix) and the same cut loses the host.
import test from 'ava';
import { labSetLink } from '../../src/lab/index.js';
import { sleep } from '../../src/lab/run.js';
import { labPing } from '../helpers/lab-ping.js';
import { activePort, assertMovedOntoBrEx, assertSecondRunIdle, BOND_SNAPSHOT, bondTheHost, longestGap, vmUplinkLab, type VmUplinkLab } from './bond-lab.js';
import { failoverDrill } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);
const NM = { configure_ovs_backend: 'nm' };
const V6 = (dev: string) => `cat /proc/sys/net/ipv6/conf/${dev}/disable_ipv6 /proc/sys/net/ipv6/conf/${dev}/accept_ra; ip -o -6 addr show dev ${dev} | awk '{print $4, $6}'`;

test.serial('nm backend, active-backup bond on a host with IPv6 disabled: the bond alone gets its link-local, failover keeps the host', async (t) => {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const base = await vmUplinkLab(t, LAB, 3, { nmOvs: true });
  const l: VmUplinkLab = { ...base, role: (vars = {}, check = false) => base.role({ ...NM, ...vars }, check) };
  const note = (what: string) => { t.log(what); console.error(`[${LAB}] ${what}`); };
  const step = (what: string, since: number) => note(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  // An IPv4-only node: IPv6 off on every device, and on every device made from now on (the bond, br-ex).
  await l.sh('sysctl -qw net.ipv6.conf.default.disable_ipv6=1 net.ipv6.conf.all.disable_ipv6=1');
  await bondTheHost(l, ['mode', 'active-backup', 'miimon', '100', 'updelay', '200']);
  await l.sh('ip link set bond0 type bond primary eth1');
  t.is((await l.sh(V6('bond0'))).trim(), '1\n1', 'the kernel-made bond has IPv6 off');

  let at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move);
  const mac = (await l.sh('cat /sys/class/net/bond0/address')).trim();
  t.regex((await l.sh(V6('bond0'))).trim(), /^0\n0\nfe80::[0-9a-f:]+\/64 link$/, `the bond (${mac}) alone has IPv6 back: a link-local, no RAs taken`);
  t.is((await l.sh(V6('br-ex'))).trim(), '1\n1', 'br-ex, which holds the node address, stays without IPv6');

  at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, await l.sh(BOND_SNAPSHOT));
  step('second run and --check', at);

  const cut = await failoverDrill(t, l, LAB, 'eth1', 'eth2');
  note(`failover with the bond's link-local: ${cut.lost} of 300 pings lost, longest gap ${cut.gap.toFixed(2)} s`);
  t.true(cut.lost < 30, `the far end learnt the MAC on eth2 at once (${cut.lost} of 300 lost)`);

  // Counter-proof, last (the host is lost after it): the bond without IPv6, as NM made it before the fix.
  await l.sh('sysctl -qw net.ipv6.conf.bond0.disable_ipv6=1');
  t.is((await l.sh('ip -o -6 addr show dev bond0')).trim(), '', 'the bond without its link-local');
  t.is(await activePort(l), 'eth1');
  await sleep(2000);
  const pinging = labPing(l.state, l.ip, ['-i', '0.05', '-c', '300', '-W', '1'], 120_000);
  await sleep(3000);
  await labSetLink(l.host.name, 'eth1', 'down', { name: LAB });
  const ping = await pinging;
  const lost = 300 - Number(/(\d+) received/.exec(ping.stdout)?.[1] ?? 0);
  note(`failover without the bond's IPv6 (no fix): ${lost} of 300 pings lost, longest gap ${longestGap(ping.stdout, 0.05, 300).toFixed(2)} s`);
  t.true(lost > cut.lost + 100, `without the link-local the far end kept the MAC on the dead port (${lost} of 300 lost, ${cut.lost} with it)`);
});
