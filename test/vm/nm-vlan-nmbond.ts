// VM tier, issue 20: the nm backend moves a VLAN on a bond NetworkManager holds under its own profiles - the
// installer's shape (vlan-lab.ts vlanTheHost: bond0 of eth1+eth2, its two port profiles, bond0.100 a vlan profile
// on it) - as MCO's configure-ovs does: ovs-if-phys0 a `vlan` profile under ovs-port-phys0 (vlan.parent bond0, id
// 100, the VLAN's MAC), NM's bond and port profiles left active as they are. The bond is active-backup (miimon 100,
// updelay 200, primary eth1; the far end the second VM on the lab bridge) or LACP (802.3ad, lacp_rate fast,
// layer3+4; wired to the switch VM of lacp-lab.ts, whose bond0.100 is the VLAN's far end). The drills, shared by
// both: an injected failure rolled back to the VLAN under NM's own profiles; the move keeping the address (a lease:
// the peer leases exactly one address, so the same address again means the same client) and SSH on br-ex; a second
// run and --check changing nothing; a port's cable cut (AB: the active port fails over; LACP: the wire cut at both
// ends, the aggregate carries on); a power cycle the boot oneshot brings the address back on br-ex from. `v6`:
// the VLAN's profile (static IPv4) also takes IPv6 from the peer's RAs on the VLAN - NM's own SLAAC, or NM's
// DHCPv6 lease (RAs saying managed); the rollback gives it back to the VLAN, the move keeps the same address
// (ovs-if-br-ex's eui64 token / the VLAN's DUID and IAID, the server's one lease) and the RA's default route on
// br-ex, SSH and ping over IPv6 reach it, the cable cut is pinged over IPv6, the power cycle brings both back.
// `protocol` 802.1ad: the VLAN a QinQ one on both ends (NM's bond0.100 profile with vlan.protocol 802.1ad, the
// peer's - on LACP the switch's - an 802.1ad VLAN), so only an S-tagged VLAN on the host reaches the far end: SSH on
// the node address after the move, the cable cut and the power cycle proves ovs-if-phys0's vlan.protocol on the bond.
// `kernelBond`: the active-backup bond made in the kernel (its ports unmanaged by NM), the VLAN NM's own profile on it
// (vlanTheHost kernelBond): NM makes the bond again under ovs-parent-bond0 and its ports under ovs-slave-*, and the
// rollback gives the kernel's bond back, NM showing it externally.
import type { ExecutionContext } from 'ava';
import { run, sleep } from '../../src/lab/run.js';
import { interfaceId } from '../../src/modules/ovs_gateway/ipv6-auto.js';
import { labPing } from '../helpers/lab-ping.js';
import { LEASES6, raDefault, reachV6, untilRaAddr, type V6Kind } from './bond-ipv6-auto.js';
import { dhcp6Of } from './nm-bond-ipv6-auto.js';
import { waitForLease } from './bond-dhcp.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, atAddress, esc, failure, recordProbe, type VmUplinkLab } from './bond-lab.js';
import { assertLacpPartner, wireCutDrill, type LacpLab } from './lacp-lab.js';
import { lacpVlanLab, VLAN, VLAN_SNAPSHOT, vlanLab, vlanTheHost, type VlanLab } from './vlan-lab.js';
import { BOND_LINES, failoverDrill, idleAfterReboot, rebootUntil, rollbackDrill, untilOutput } from './vm-drills.js';
import { VM_DEADLINE_MS, VM_DEADLINE_WHY } from './deadline.js';
import { scenarioLog } from './scenario-log.js';
import { bootChurn } from './boot-churn.js';

const DEV = VLAN.dev;
/** Which profile NM holds each of the uplink's devices under, and in what state. */
const HELD = `for d in bond0 ${DEV} eth1 eth2; do echo "$d $(nmcli -g GENERAL.STATE,GENERAL.CONNECTION device show "$d" | paste -sd ' ')"; done`;
const HELD_BEFORE = ['bond0 100 (connected) bond0', `${DEV} 100 (connected) ${DEV}`, 'eth1 100 (connected) bond0-eth1', 'eth2 100 (connected) bond0-eth2'].join('\n');
// Not eth0's: after a power cycle the lab's seed profile holds eth0 again (idleAfterReboot asserts it, then lets it go);
// nor eth3's (the LACP lab's spare NIC on the lab bridge, managed by NM again after a boot).
const ACTIVE = 'nmcli -t -f NAME,TYPE,DEVICE connection show --active | grep -v "^lo:\\|:eth[03]$" | LC_ALL=C sort';
const MCO = ['br-ex:ovs-bridge:br-ex', 'ovs-if-br-ex:ovs-interface:br-ex', `ovs-if-phys0:vlan:${DEV}`, 'ovs-port-br-ex:ovs-port:br-ex', `ovs-port-phys0:ovs-port:${DEV}`];
const PROFILES = ['bond0-eth1:802-3-ethernet:eth1', 'bond0-eth2:802-3-ethernet:eth2', 'bond0:bond:bond0', ...MCO].sort().join('\n');
/** On a kernel-made bond: NM's bond again under ovs-parent-bond0, its ports under ovs-slave-* (nm-device-profiles.ts). */
const KBOND_PROFILES = ['ovs-parent-bond0:bond:bond0', 'ovs-slave-eth1:802-3-ethernet:eth1', 'ovs-slave-eth2:802-3-ethernet:eth2', ...MCO].sort().join('\n');
const NM_WARNINGS = 'journalctl -u NetworkManager --no-pager -o cat --since -15min | grep -E "(bond0|eth1|eth2|ovs-if-phys0|ovs-parent|ovs-slave)" | grep -iE "fail|warn|error" | tail -n 12; true';
const LEASES = '/run/v21-dhcp.leases';
const LACP_OPTIONS = 'mode=802.3ad,lacp_rate=fast,miimon=100,xmit_hash_policy=layer3+4';
const lease = new RegExp(`inet ${esc(VLAN.host4)}/24 .*dynamic`);
/** The /64 the peer's RAs announce on the VLAN (vlanLab's `ra`). */
const PREFIX6 = VLAN.gw6.replace(/::1$/, '');
/** VLAN_SNAPSHOT without the RA default route's countdown (`expires 1786sec`). */
const SNAPSHOT6 = `{ ${VLAN_SNAPSHOT}; } | sed -E 's/ expires [0-9]+sec//g'`;
/** Lines as a set: NM enslaves a bond's ports in whichever order their activations end (after a boot). */
const lineSet = (text: string) => text.trim().split('\n').sort();

/**
 * `l` whose ssh, when it fails (ssh's 255: the node address stopped answering), reads the path from both ends before
 * throwing: the lab namespace's ping and neighbour entry, the far end's (the peer's) VLAN, neighbours and bond, then
 * waits up to 180 s for SSH back and reads the host's bond, br-ex and journal - a lost session says why, not just rc=255.
 */
function diagnosed(l: VmUplinkLab, v: VlanLab, note: (what: string) => void): VmUplinkLab {
  const sh = async (cmd: string, timeoutMs?: number): Promise<string> => {
    try {
      return await l.sh(cmd, timeoutMs);
    } catch (e) {
      if (!/rc=255/.test((e as Error).message)) throw e;
      const lost = Date.now();
      const ping = await labPing(l.state, l.ip, ['-c3', '-W2']);
      const neigh = await run('ip', ['-n', l.state.netns, 'neigh', 'show'], { check: false });
      const far = await v.peerSh(`ip -br link; ip -br addr; ip neigh show; cat /proc/net/bonding/bond0 2>/dev/null | grep -E "MII Status|Partner Mac|Aggregator ID|Slave Interface"; ping -c3 -W2 ${VLAN.host4}; true`).catch((x: Error) => x.message);
      let back = '';
      for (const until = Date.now() + 180_000; !back && Date.now() < until;) {
        back = await l.sh('cat /proc/net/bonding/bond0; ip -br addr; ip route; ovs-vsctl show; journalctl --no-pager -o short-precise --since -6min | grep -E "NetworkManager|configure-ovs|kernel|ovs-vswitchd|sshd" | tail -n 80', 60_000).catch(() => '');
        if (!back) await sleep(5000);
      }
      const why = `ssh at ${l.ip} lost (${cmd}); back: ${back ? `after ${((Date.now() - lost) / 1000).toFixed(0)} s` : 'no, 180 s'}\n`
        + `lab ping:\n${ping.stdout}\nlab neigh:\n${neigh.stdout}\nfar end:\n${far}\nhost:\n${back}`;
      note(why);
      throw new Error(why);
    }
  };
  return { ...l, sh };
}

export interface Scenario {
  l: VmUplinkLab; v: VlanLab; lab: string; dhcp: boolean;
  /** `l` without the diagnosis of a lost SSH (the power cycle's wait expects it lost). */
  raw: VmUplinkLab;
  /** The LACP lab (switch VM) seen at the node address; undefined on the active-backup bond. */
  lacp?: LacpLab;
  /** The VLAN's IPv6 from RAs before the move (`v6`): its kind, address and prefix length, NM's DHCPv6 lines (dhcp6Of). */
  v6?: { kind: V6Kind; addr: string; len: string; lease: string };
  /** What the host reads as (VLAN_SNAPSHOT; with SLAAC, without the RA route's countdown). */
  snapshot: string;
  /** In probe names and notes: dhcp, static, slaac or dhcp6 (an 802.1ad VLAN: qinq-static ...). */
  what: string;
  /** The bond in probe names: nmbond, nmlacp or kbond-nm (a kernel-made bond, the nm backend). */
  bond: string;
  /** NM's view of the bond, its ports and the VLAN before the move (HELD), the rollback's target. */
  held: string;
  /** The profiles active once moved (ACTIVE). */
  profiles: string;
  /** The VLAN's protocol on both ends, as `ip -d link` shows it. */
  proto: string;
  mac: string; bondBefore: string; note(what: string): void; step(what: string, since: number): void;
}

/**
 * The two VMs with the node address on bond0.100 over NM's bond0 (`dhcp`: a lease, else static; `lacp`: 802.3ad;
 * `v6`: static IPv4 and NM's SLAAC or DHCPv6 from the peer's RAs on the VLAN; `protocol`: the VLAN's on both ends, 802.1Q
 * unless given), the role on the nm backend.
 */
export async function nmVlanBondHost(t: ExecutionContext, lab: string, o: { dhcp: boolean; lacp?: boolean; v6?: V6Kind; protocol?: '802.1ad'; kernelBond?: boolean }): Promise<Scenario> {
  t.timeout(VM_DEADLINE_MS, VM_DEADLINE_WHY);
  const { note, step } = scenarioLog(t, lab);
  const at = Date.now();
  if (o.kernelBond && (o.lacp || o.protocol)) throw new Error('a kernel-made bond is drilled here active-backup with an 802.1Q VLAN only (802.1ad on it: nm-vlan-bond-uplink.test.ts)');
  const qinq = o.protocol ? { protocol: o.protocol } : {};
  const far = { nmOvs: true, dhcp: o.dhcp, ...(o.v6 ? { ra: o.v6 } : {}) };
  const labs = o.lacp ? await lacpVlanLab(t, lab, { ...far, ...qinq }) : { v: await vlanLab(t, lab, { ...far, ...qinq }) };
  const { v } = labs;
  if (o.protocol) t.regex(await v.peerSh(`ip -d -o link show dev ${o.lacp ? 'bond0' : 'eth1'}.${VLAN.id}`), /vlan protocol 802\.1ad id /, 'the far end is an 802.1ad VLAN');
  const at0 = await vlanTheHost(v, { ...(o.dhcp ? { dhcp: true } : { v4: true, nm: true }), ...(o.lacp ? { nmBond: LACP_OPTIONS } : {}), ...(o.kernelBond ? { kernelBond: true } : {}), v6Auto: Boolean(o.v6), ...qinq });
  const raw: VmUplinkLab = { ...at0, role: (vars = {}, check = false) => at0.role({ configure_ovs_backend: 'nm', ...vars }, check) };
  const l = diagnosed(raw, v, note);
  if (o.dhcp) t.regex(await waitForLease(l, DEV, lease), lease, 'the VLAN holds its lease');
  const want6 = o.v6 === 'dhcp6' ? '128' : '64';
  const [addr, len] = o.v6 ? await untilRaAddr(l, DEV, PREFIX6, want6, 300_000) : [];
  let lease6 = '';
  if (o.v6) {
    t.is(len, want6, `${DEV} holds a ${o.v6} address in ${PREFIX6}::/64 (/${want6}) and the RA's default route`);
    if (o.v6 === 'slaac') t.regex(await l.sh(`ip -o -6 addr show dev ${DEV} scope global`), /dynamic noprefixroute/, 'NM\'s own SLAAC');
    else {
      t.regex(await v.peerSh(`cat ${LEASES6}`), new RegExp(` ${esc(addr!)} `), 'the DHCPv6 server leased it');
      lease6 = (await l.sh(dhcp6Of(DEV))).trim();
      t.regex(lease6, new RegExp(`dhcp6_client_id = [0-9a-f:]+\\n[\\s\\S]*ip6_address = ${esc(addr!)}`), lease6);
    }
  }
  const what = `${o.protocol ? 'qinq-' : ''}${o.v6 ?? (o.dhcp ? 'dhcp' : 'static')}`;
  const proto = o.protocol ?? '802.1Q';
  const bondIs = o.kernelBond ? 'the kernel\'s active-backup bond, NM\'s' : `NM's ${o.lacp ? 'LACP' : 'active-backup'} bond and`;
  step(`VMs up, host on ${DEV} (${bondIs} ${proto} VLAN profile${o.kernelBond ? '' : 's'}, ${o.dhcp ? 'DHCP' : 'static'}${o.v6 ? `, ${o.v6} ${addr}/${len}` : ''})`, at);
  t.regex(await l.sh(`ip -d -o link show dev ${DEV}`), new RegExp(`vlan protocol ${esc(proto)} id ${VLAN.id} `), `NM made the host's VLAN ${proto}`);
  let held = HELD_BEFORE;
  if (o.kernelBond) {
    held = (await l.sh(HELD)).trim();
    note(`NM before: ${held.replaceAll('\n', '; ')}`);
    t.regex(held, new RegExp(`^${esc(DEV)} 100 \\(connected\\) ${esc(DEV)}$`, 'm'), 'NM holds the VLAN under its own profile');
    t.regex(held, /^bond0 100 \(connected \(externally\)\)/m, 'the bond is the kernel\'s (NM shows it externally)');
    t.regex(held, /^eth1 10 \(unmanaged\) *\neth2 10 \(unmanaged\) *$/m, 'its ports unmanaged');
  } else t.is(await untilOutput(l, HELD, HELD_BEFORE), HELD_BEFORE, 'NM holds the bond, its ports and the VLAN under their own profiles');
  const lacp = 'lacp' in labs ? { ...labs.lacp, l } : undefined;
  if (lacp) {
    const bond = await assertLacpPartner(t, lacp, ' before the move');
    t.regex(bond, /Bonding Mode: IEEE 802\.3ad Dynamic link aggregation\nTransmit Hash Policy: layer3\+4[\s\S]*LACP rate: fast/);
  }
  return { l, raw, v, lab, dhcp: o.dhcp, ...(lacp ? { lacp } : {}), ...(o.v6 ? { v6: { kind: o.v6, addr: addr!, len: len!, lease: lease6 } } : {}),
    snapshot: o.v6 ? SNAPSHOT6 : VLAN_SNAPSHOT, what, proto, held, bond: o.kernelBond ? 'kbond-nm' : o.lacp ? 'nmlacp' : 'nmbond', profiles: o.kernelBond ? KBOND_PROFILES : PROFILES, mac: (await l.sh(`cat /sys/class/net/${DEV}/address`)).trim(), bondBefore: await l.sh(BOND_LINES), note, step };
}

/** After a rollback: NM holds everything as before (its own profiles; a kernel-made bond external again), no ovs-* profile left, the bond as before. */
async function backUnderNm(t: ExecutionContext, c: Scenario): Promise<void> {
  const { l } = c;
  c.note(`NM's complaints: ${(await l.sh(NM_WARNINGS)).trim().replaceAll('\n', ' | ') || 'none'}`);
  t.is(await untilOutput(l, HELD, c.held), c.held, 'NM holds the bond, its ports and the VLAN as before the move');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /^ovs-/m, 'no ovs-* profile left');
  t.is((await l.sh(`cat /sys/class/net/${DEV}/address`)).trim(), c.mac);
  t.deepEqual(lineSet(await l.sh(BOND_LINES)), lineSet(c.bondBefore), 'bond options and ports as before');
  if (c.lacp) await assertLacpPartner(t, c.lacp, ' after the rollback');
}

/** An injected failure (a check target nothing answers) rolled back within the window to NM's own profiles. */
export async function injectedFailure(t: ExecutionContext, c: Scenario): Promise<void> {
  const { l } = c;
  await recordProbe(l, `probe-vlan-${c.bond}-${c.what}-fresh`);
  const dead = VLAN.gw4.replace(/\.1$/, '.254');
  const at = Date.now();
  if (c.dhcp) {
    const bad = await l.role({ configure_ovs_check_targets: [dead] });
    c.step('injected failure run', at);
    t.is(bad.summary.exitCode, 2, failure(bad));
    t.regex(failure(bad), new RegExp(`rolled back after [\\d.]+ s: connectivity check failed: ${esc(dead)} does not answer through br-ex`));
    t.regex(await waitForLease(l, DEV, lease), lease, 'the rollback gives the VLAN its lease back');
    c.step('lease back on the VLAN after the injected failure', at);
    t.regex(await l.sh('ip route show default'), new RegExp(`default via ${esc(VLAN.gw4)} dev ${esc(DEV)} proto dhcp`));
  } else {
    const before = await l.sh(c.snapshot);
    await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: DEV, snapshot: c.snapshot, before, settleMs: c.v6 ? 150_000 : 60_000,
      what: `the VLAN and ${c.bond === 'kbond-nm' ? 'the kernel\'s' : 'NM\'s'} bond (options, ports, MACs), the address${c.v6 ? `, the ${c.v6.kind} address and the RA's default route` : ''} and routes` });
    c.step('injected failure rolled back', at);
  }
  await backUnderNm(t, c);
}

/** The move: SSH kept, MCO's profiles active beside NM's own bond profiles, what must hold on br-ex returned. */
export async function moveOntoBrEx(t: ExecutionContext, c: Scenario): Promise<() => Promise<void>> {
  const { l, mac, dhcp } = c;
  const at = Date.now();
  const move = await l.role();
  c.step('move', at);
  await assertMovedOntoBrEx(t, l, move, DEV);
  t.is(await untilOutput(l, ACTIVE, c.profiles), c.profiles, 'ovs-if-phys0 a vlan profile under OVS, the bond and its ports under their profiles');
  t.is((await l.sh('nmcli -g vlan.parent,vlan.id connection show ovs-if-phys0')).trim(), `bond0\n${VLAN.id}`);
  // 802.1Q: vlan.protocol left unset (NM's default), as MCO's profile has it.
  if (c.proto !== '802.1Q') t.is((await l.sh('nmcli -g vlan.protocol connection show ovs-if-phys0')).trim(), c.proto, 'ovs-if-phys0 carries the VLAN\'s protocol');
  if (c.v6?.kind === 'slaac') {
    const ip6 = (await l.sh('nmcli -g ipv6.method,ipv6.addr-gen-mode,ipv6.token connection show ovs-if-br-ex')).trim().replaceAll('\\', '');
    t.regex(ip6, new RegExp(`^auto\\neui64\\n${esc(interfaceId(c.v6.addr))}$`), `ovs-if-br-ex makes the VLAN's SLAAC address from its identifier:\n${ip6}`);
  }
  const onBrEx = async () => {
    if (dhcp) t.regex(await l.sh('ip -o -4 addr show dev br-ex'), lease, 'the same lease, now on br-ex');
    else t.regex(await l.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${esc(VLAN.host4)}/24 `), 'the same address, now on br-ex');
    t.regex(await l.sh('ip route show default'), new RegExp(`^default via ${esc(VLAN.gw4)} dev br-ex proto ${dhcp ? 'dhcp' : 'static'} .*metric 48 *$`, 'm'));
    t.is((await l.sh(`ip -o addr show dev ${DEV} scope global; ip -o addr show dev bond0 scope global`)).trim(), '', 'the VLAN and the bond hold no address');
    t.regex(await l.sh(`ip -d -o link show dev ${DEV}`), new RegExp(`${esc(DEV)}@bond0: .*link/ether ${esc(mac)} .*vlan protocol ${esc(c.proto)} id ${VLAN.id} `));
    t.is((await l.sh('cat /sys/class/net/br-ex/address')).trim(), mac, 'br-ex has the VLAN\'s MAC');
    t.deepEqual(lineSet(await l.sh(BOND_LINES)), lineSet(c.bondBefore), 'NM\'s bond with its mode, options and ports as before');
    if (dhcp) t.regex(await c.v.peerSh(`cat ${LEASES}`), new RegExp(`${esc(mac)} ${esc(VLAN.host4)} `), 'the one lease is the VLAN MAC\'s');
    if (c.lacp) await assertLacpPartner(t, c.lacp, ' on br-ex');
    if (c.v6) await sameV6OnBrEx(t, c, c.v6);
  };
  await onBrEx();
  return onBrEx;
}

/** On br-ex: the same IPv6 address (DHCPv6: from the VLAN's DUID and IAID, one lease), the RA's route at metric 48, ping and SSH over IPv6. */
async function sameV6OnBrEx(t: ExecutionContext, c: Scenario, v6: NonNullable<Scenario['v6']>): Promise<void> {
  const { l } = c;
  t.deepEqual(await untilRaAddr(l, 'br-ex', PREFIX6, v6.len), [v6.addr, v6.len], `the same ${v6.kind} address on br-ex`);
  t.regex(await l.sh('ip -6 route show default'), raDefault('br-ex', '48'), 'the RA\'s default route on br-ex at metric 48');
  if (v6.kind === 'dhcp6') {
    t.is((await l.sh(dhcp6Of('br-ex'))).trim(), v6.lease, 'br-ex\'s client sent the VLAN\'s DUID and IAID and holds the same address');
    const leases = (await c.v.peerSh(`cat ${LEASES6}`)).split('\n').filter((s) => s.includes(`${PREFIX6}::`));
    t.is(leases.length, 1, `one lease, the same address:\n${leases.join('\n')}`);
    t.true(leases[0]?.includes(` ${v6.addr} `), leases[0]);
  }
  await reachV6(t, l, v6.addr);
}

/** The rest after the rollback: move, second run and --check, a port's cable cut. Returns onBrEx (moveOntoBrEx). */
export async function moveIdleFailover(t: ExecutionContext, c: Scenario): Promise<() => Promise<void>> {
  const { l, lacp } = c;
  const { what } = c;
  const onBrEx = await moveOntoBrEx(t, c);
  await recordProbe(l, `probe-vlan-${c.bond}-${what}-moved`);
  const at = Date.now();
  await assertSecondRunIdle(t, l, c.snapshot, await l.sh(c.snapshot));
  c.step('second run and --check', at);
  // With SLAAC the cut is pinged over IPv6 (the host reached at its SLAAC address on br-ex).
  const pinged = c.v6 ? atAddress(l, c.v6.addr, l.gw) : l;
  const cutAt = Date.now();
  const cut = lacp ? await wireCutDrill(t, { ...lacp, l: pinged }, c.lab) : await failoverDrill(t, pinged, c.lab, 'eth1', 'eth2');
  c.step(`${lacp ? 'eth1 wire cut under NM\'s own LACP' : c.bond === 'kbond-nm' ? 'failover under ovs-parent-bond0 (the kernel bond made again), active-backup' : 'failover under NM\'s own active-backup'} bond profile, VLAN on it under OVS (${what}, ping ${pinged.ip}): ${cut.lost} of 300 pings lost, longest gap ${cut.gap.toFixed(2)} s; drill`, cutAt);
  t.true(cut.lost < 30, `the far end learnt the way over the other port at once (${cut.lost} of 300 lost)`);
  t.is(await untilOutput(l, ACTIVE, c.profiles), c.profiles, 'every profile still active after the cable came back');
  if (lacp) await assertLacpPartner(t, lacp, ' after the wire came back');
  return onBrEx;
}

/**
 * One scenario whole on its own VMs (nmVlanBondHost's `o`): the injected failure, the move, the second run and
 * --check, the port's cable cut and (`cycle`) the power cycle, its duration noted.
 */
export async function nmVlanBondScenario(t: ExecutionContext, lab: string, o: { dhcp: boolean; lacp?: boolean; v6?: V6Kind; protocol?: '802.1ad'; kernelBond?: boolean; cycle: boolean }): Promise<void> {
  const started = Date.now();
  const c = await nmVlanBondHost(t, lab, o);
  await injectedFailure(t, c);
  const onBrEx = await moveIdleFailover(t, c);
  if (o.cycle) await powerCycle(t, c, onBrEx);
  c.note(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * A power cycle after the move: NM brings its bond, ports and (old) VLAN profile up at boot; the boot oneshot makes
 * our profiles again and ovs-if-phys0 takes the VLAN over, the address (the lease) back on br-ex; the runs after it.
 */
export async function powerCycle(t: ExecutionContext, c: Scenario, onBrEx: () => Promise<void>): Promise<void> {
  const { l } = c;
  // With IPv6 from RAs: the IPv4 address and the IPv6 one (out of DAD) both on br-ex.
  const v4 = c.dhcp ? lease : new RegExp(`inet ${esc(VLAN.host4)}/24 `);
  const want = c.v6 ? new RegExp(`^(?=[\\s\\S]*${v4.source})(?=[\\s\\S]*inet6 ${esc(c.v6.addr)}/${c.v6.len} )`) : v4;
  const probe = c.v6 ? 'ip -o addr show dev br-ex scope global -tentative' : 'ip -o -4 addr show dev br-ex';
  const at = Date.now();
  await rebootUntil(t, c.raw, c.lab, probe, want);
  c.step(`power cycle until the ${c.dhcp ? 'lease' : 'address'} is on br-ex`, at);
  await bootChurn(l, c.note); // figures only: NM's own bond is NM's to make at boot
  t.is(await untilOutput(l, ACTIVE, c.profiles), c.profiles, 'the same profiles active after the reboot');
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), DEV);
  await onBrEx();
  const idle = Date.now();
  await idleAfterReboot(t, l, { uplink: DEV, eth0Ip: c.v.lab.ip, probe, want });
  c.step('runs after the reboot (refused beside eth0, then idle)', idle);
  t.is(await untilOutput(l, ACTIVE, c.profiles), c.profiles, 'the profiles as the boot made them');
  if (c.lacp) await assertLacpPartner(t, c.lacp, ' after the power cycle and the runs');
}
