// VM-tier DHCP-on-a-bond scenarios (issue 20): the host's lab address is a DHCP lease on bond0 (no VLAN), the
// bond and its ports made by NetworkManager profiles as an installer makes them, served by the second VM of
// the lab (dnsmasq on its eth0, on the lab bridge, leasing exactly that one address: only the same client -
// its MAC-based client id - gets it again). The drills: an injected failure rolls back (the lease back on
// bond0 through NM), the move keeps the lease and SSH on br-ex, a second run and --check change nothing, a
// port's cut fails over (the caller's drill), and after a power cycle the boot oneshot makes the bond again
// and br-ex's DHCP client (networkd's; the nm backend: NM's, under ovs-if-br-ex made again from /run) gets the
// same lease back; a run afterwards refuses eth0 (the lab's seed unit readdresses it at boot) and, eth0 let go,
// changes nothing (idleAfterReboot).
import type { ExecutionContext } from 'ava';
import { sleep } from '../../src/lab/run.js';
import { shellJoin } from '../../src/transports/quote.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, BOND_SNAPSHOT, esc, failure, type VmUplinkLab } from './bond-lab.js';
import { BOND_LINES, idleAfterReboot, rebootKeepsBond, type NmHeld } from './vm-drills.js';
import { vmSh } from './vm-ssh.js';

export const NM_DEVICES = 'nmcli -t -f DEVICE,STATE device | grep -E "^(bond0|eth1|eth2):" | LC_ALL=C sort';
const LEASES = '/run/vmx-dhcp.leases';

/** A DHCP bond scenario's bond and hooks; DhcpBond adds the drills of the whole scenario. */
export interface DhcpBondSetup {
  lab: string;
  /** NM's bond.options (mode=...,miimon=...). */
  nmOptions: string;
  /** What /proc/net/bonding/bond0 must show before and after (mode and options). */
  bond: RegExp;
  /** Optional, backend-specific checks: once the lease is on bond0, after the rollback, after the move. */
  ready?(): Promise<void>;
  afterRollback?(): Promise<void>;
  afterMove?(): Promise<void>;
  /** The nm backend: our profiles NM must hold, all active, after the power cycle. */
  nm?: NmHeld;
}

export interface DhcpBond extends DhcpBondSetup {
  /** The failover drill, after the second run. */
  failover(): Promise<void>;
  /** Replaces the power-cycle drill (given the bond's lines before the move). */
  reboot?(bondBefore: string): Promise<void>;
}

/** The device's IPv4 lines once they show `lease` (the rollback gives it back), or the last lines after 240 s. */
export async function waitForLease(l: VmUplinkLab, dev: string, lease: RegExp): Promise<string> {
  let back = '';
  for (const until = Date.now() + 240_000; !lease.test(back) && Date.now() < until;) {
    back = await l.sh(shellJoin(['ip', '-o', '-4', 'addr', 'show', 'dev', dev]), 60_000).catch((e: Error) => e.message);
    if (!lease.test(back)) await sleep(3000);
  }
  return back;
}

/** A command on the lab's second VM (the far end: DHCP server, IPv6 router). */
export const peerSh = (l: VmUplinkLab, cmd: string) => vmSh(l.state, l.state.hosts[1]!, cmd);

/**
 * The host's bond0 of eth1+eth2 made by NetworkManager as an installer makes it (a bond profile with `nmOptions`
 * and `ip` - its ipv4/ipv6 settings - and a port profile per port), eth0 let go, detached (the session's own
 * path moves); the second VM's other NICs and the host's eth0/eth3 unmanaged so no other client speaks on the
 * lab bridge. The bond's MAC is eth1's, fixed in its profile: with NM's default a bond got a random MAC
 * (72:0f:4a:e3:ec:0f), and after the injected failure's rollback it came back with eth2's - a new DHCP client,
 * no lease (issue 20). Returns once the steps were started; the caller waits for its address.
 */
export async function nmBondUp(l: VmUplinkLab, nmOptions: string, ip: string[]): Promise<void> {
  const mac = (await l.sh('cat /sys/class/net/eth1/address')).trim();
  await peerSh(l, 'systemctl stop firewalld 2>/dev/null; nft flush ruleset; for d in eth1 eth2 eth3; do nmcli device set "$d" managed no 2>/dev/null || true; done');
  const steps = ['for d in eth0 eth3; do nmcli device set "$d" managed no 2>/dev/null || true; done',
    shellJoin(['nmcli', 'connection', 'add', 'type', 'bond', 'con-name', 'bond0', 'ifname', 'bond0', 'bond.options', nmOptions, ...ip, 'ethernet.cloned-mac-address', mac]),
    'nmcli connection add type ethernet con-name bond0-eth1 ifname eth1 master bond0 slave-type bond',
    'nmcli connection add type ethernet con-name bond0-eth2 ifname eth2 master bond0 slave-type bond',
    // eth0 lets the address go first: the bond takes that same address.
    'ip addr flush dev eth0', 'ip link set eth0 down', 'nmcli connection up bond0-eth1', 'nmcli connection up bond0-eth2',
    // The lab's gateway (where the controller is) learns the address's new MAC.
    `ping -c3 -W2 ${shellJoin([l.gw])} >/dev/null || true`].join(' && ');
  await l.sh(shellJoin(['systemd-run', '--quiet', '--collect', '--unit=vmx-bond', 'sh', '-c', `sleep 1; ${steps}`]));
}

/**
 * The host's bond0 takes its lab address through NM (DHCP on the bond), then the second VM starts leasing that
 * one address on the lab bridge.
 */
async function leaseOnBond(l: VmUplinkLab, nmOptions: string): Promise<void> {
  await nmBondUp(l, nmOptions, ['ipv4.method', 'auto', 'ipv4.dhcp-client-id', 'mac', 'ipv4.dhcp-timeout', 'infinity', 'ipv6.method', 'ignore']);
  await sleep(15_000);
  await peerSh(l, shellJoin(['systemd-run', '--quiet', '--unit=vmx-dhcp', 'dnsmasq', '--keep-in-foreground', '--user=root', '--port=0',
    '--interface=eth0', '--bind-interfaces', `--dhcp-range=${l.ip},${l.ip},255.255.255.0,10m`,
    `--dhcp-option=3,${l.gw}`, `--dhcp-leasefile=${LEASES}`, '--log-dhcp']));
  const lease = new RegExp(`inet ${esc(l.ip)}/24 .*dynamic`);
  let out = '';
  for (const until = Date.now() + 300_000; !lease.test(out);) {
    await sleep(3000);
    out = await l.sh('ip -o -4 addr show dev bond0 2>/dev/null; true', 60_000).catch(() => '');
    if (!lease.test(out) && Date.now() > until) {
      const why = await peerSh(l, `journalctl -u vmx-dhcp --no-pager | tail -20; cat ${LEASES}; true`).catch((e: Error) => e.message);
      throw new Error(`bond0 holds no lease of ${l.ip} after 300 s (the DHCP server's log:)\n${why}`);
    }
  }
}

/** Lines as a set: NM's profiles enslave a bond's ports in whichever order their activations end. */
const lineSet = (text: string) => text.trim().split('\n').sort();

/** What the phases of a DHCP bond scenario share: the lease, the bond's MAC and lines and NM's view before the move. */
interface Before { lease: RegExp; dhcpDefault(dev: string, metric?: string): RegExp; mac: string; bondBefore: string; nmBefore: string }

/** A step's duration in the test's log and on stderr as it comes (a run cut off by its deadline keeps it). */
const stepLog = (t: ExecutionContext) => (what: string, since: number) => {
  const line = `${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`;
  t.log(line);
  console.error(line);
};

/** The lease on bond0 through NM, the bond as `d.bond` says, and what the later phases compare with. */
async function dhcpBondReady(t: ExecutionContext, l: VmUplinkLab, d: DhcpBondSetup): Promise<Before> {
  const lease = new RegExp(`inet ${esc(l.ip)}/24 .*dynamic`);
  const dhcpDefault = (dev: string, metric = '') => new RegExp(`default via ${esc(l.gw)} dev ${dev} proto dhcp .*${metric}`);
  const at = Date.now();
  await leaseOnBond(l, d.nmOptions);
  stepLog(t)('host on bond0 (NM, DHCP)', at);
  await d.ready?.();
  t.regex(await l.sh('nmcli -t -f GENERAL.CONNECTION device show bond0'), /bond0/, 'through NetworkManager');
  t.regex(await l.sh('ip route show default'), dhcpDefault('bond0'));
  const mac = (await l.sh('cat /sys/class/net/bond0/address')).trim();
  const bondBefore = await l.sh(BOND_LINES);
  t.regex(bondBefore, d.bond);
  const nmBefore = await l.sh(NM_DEVICES);
  for (const dev of ['bond0', 'eth1', 'eth2']) t.regex(nmBefore, new RegExp(`^${dev}:connected$`, 'm'), nmBefore);
  return { lease, dhcpDefault, mac, bondBefore, nmBefore };
}

/** Injected failure: a check target nothing answers. The rollback gives bond0 its lease back through NM. */
async function dhcpBondRollback(t: ExecutionContext, l: VmUplinkLab, d: DhcpBondSetup, b: Before): Promise<void> {
  const step = stepLog(t);
  const at = Date.now();
  const dead = l.gw.replace(/\.\d+$/, '.254');
  const bad = await l.role({ configure_ovs_check_targets: [dead] });
  step('injected failure run', at);
  t.is(bad.summary.exitCode, 2, failure(bad));
  t.regex(failure(bad), new RegExp(`rolled back after [\\d.]+ s: connectivity check failed: ${esc(dead)} does not answer through br-ex`));
  t.regex(await waitForLease(l, 'bond0', b.lease), b.lease, 'the rollback gives bond0 its lease back');
  step('lease back after the injected failure', at);
  t.is(await l.sh(NM_DEVICES), b.nmBefore, 'NetworkManager holds the bond and its ports again as before');
  t.regex(await l.sh('ip route show default'), b.dhcpDefault('bond0'));
  t.is((await l.sh('cat /sys/class/net/bond0/address')).trim(), b.mac);
  t.deepEqual(lineSet(await l.sh(BOND_LINES)), lineSet(b.bondBefore), 'bond options and ports as before');
  await d.afterRollback?.();
}

/** The move: the lease and SSH on br-ex, the one lease still bond0's MAC's, the bond kept. */
async function dhcpBondMove(t: ExecutionContext, l: VmUplinkLab, d: DhcpBondSetup, b: Before): Promise<void> {
  const at = Date.now();
  const move = await l.role();
  stepLog(t)('move', at);
  await assertMovedOntoBrEx(t, l, move);
  t.regex(await l.sh('ip -o -4 addr show dev br-ex'), b.lease, 'the same lease, now on br-ex');
  t.regex(await l.sh('ip route show default'), b.dhcpDefault('br-ex', 'metric 48'));
  t.is((await l.sh('ip -o addr show dev bond0 scope global')).trim(), '', 'bond0 holds no address');
  t.regex(await peerSh(l, `cat ${LEASES}`), new RegExp(`${esc(b.mac)} ${esc(l.ip)} `), 'the one lease is bond0\'s MAC\'s');
  t.deepEqual(lineSet(await l.sh(BOND_LINES)), lineSet(b.bondBefore), 'bond options and ports kept');
  await d.afterMove?.();
}

/**
 * A power cycle: the boot oneshot makes bond0 again (the ovs backend: NM leaves it alone; nm: our profiles from
 * /run, NM's own bond profiles, autoconnected at boot, give way) and br-ex's DHCP client gets the lease; the runs after it.
 */
async function dhcpBondReboot(t: ExecutionContext, l: VmUplinkLab, d: DhcpBondSetup, b: Before): Promise<void> {
  const step = stepLog(t);
  let at = Date.now();
  await rebootKeepsBond(t, l, d.lab, 'ip -o -4 addr show dev br-ex', b.lease, b.bondBefore, d.nm);
  step('reboot (the lease on br-ex, SSH on it)', at);
  t.regex(await l.sh('ip route show default'), b.dhcpDefault('br-ex', 'metric 48'));
  t.regex(await l.sh('ip -o link show dev br-ex'), new RegExp(`link/ether ${esc(b.mac)} `), 'br-ex has the bond\'s MAC');
  t.regex(await peerSh(l, `cat ${LEASES}`), new RegExp(`${esc(b.mac)} ${esc(l.ip)} `), 'the lease is the bond MAC\'s still');
  at = Date.now();
  await idleAfterReboot(t, l, { probe: 'ip -o -4 addr show dev br-ex; ip route show default',
    want: new RegExp(`${b.lease.source}[\\s\\S]*${b.dhcpDefault('br-ex', 'metric 48').source}`) });
  step('runs after the reboot (refused beside eth0, then idle)', at);
}

/** The whole DHCP scenario on the lab `l` (two VMs, the second the DHCP server). */
export async function dhcpBondScenario(t: ExecutionContext, l: VmUplinkLab, d: DhcpBond): Promise<void> {
  const b = await dhcpBondReady(t, l, d);
  await dhcpBondRollback(t, l, d, b);
  await dhcpBondMove(t, l, d, b);
  const moved = await l.sh(BOND_SNAPSHOT);
  const at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, moved);
  stepLog(t)('second run and --check', at);
  await d.failover();
  if (d.reboot) return d.reboot(b.bondBefore);
  await dhcpBondReboot(t, l, d, b);
}

/**
 * The power cycle alone (a scenario of its own where the whole one would outlast its deadline): the lease on bond0
 * through NM, the move, the power cycle and the runs after it.
 */
export async function dhcpBondRebootScenario(t: ExecutionContext, l: VmUplinkLab, d: DhcpBondSetup): Promise<void> {
  const b = await dhcpBondReady(t, l, d);
  await dhcpBondMove(t, l, d, b);
  await dhcpBondReboot(t, l, d, b);
}
