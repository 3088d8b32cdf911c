// The nm backend's SLAAC / DHCPv6 on a bond scenario (issue 20), on the router lab of bond-ipv6-auto.ts: the
// host's bond0 (eth1+eth2: active-backup, or LACP with the second VM as the switch, lacp-lab.ts) made by
// NetworkManager profiles (IPv4 static, ipv6.method auto), its IPv6 from the second VM's RAs (dnsmasq: SLAAC
// only, or its DHCPv6 range). An injected failure rolls back exactly (NM holds the bond and its ports under
// their own profiles again, no ovs-* profile left); the move gives MCO's profile set with the bond and its ports
// (seven, all active) and keeps the same IPv6 address (SLAAC: ovs-if-br-ex's eui64 token; DHCPv6: the bond's
// DUID and IAID, the server's one lease) and the RA's default route at metric 48 on br-ex; ping and SSH over
// IPv6 reach it; a second run and --check change nothing; a cable cut (pinged over IPv6) is carried by the other
// port; after a power cycle the boot oneshot makes our profiles again and the same address, RA route and SSH over
// IPv6 come back; the run after it refuses beside the lab's eth0 and, eth0 let go, changes nothing.
import type { ExecutionContext } from 'ava';
import { sleep } from '../../src/lab/run.js';
import { interfaceId } from '../../src/modules/ovs_gateway/ipv6-auto.js';
import { activePort, assertMovedOntoBrEx, assertSecondRunIdle, atAddress, esc, recordProbe, type VmUplinkLab } from './bond-lab.js';
import { LEASES6, raDefault, reachV6, routedBond, v6Addr, V6_SNAPSHOT, type V6Kind } from './bond-ipv6-auto.js';
import { NM_DEVICES, peerSh } from './bond-dhcp.js';
import { BOND_LINES, failoverDrill, idleAfterReboot, rebootKeepsBond, rollbackDrill } from './vm-drills.js';
import { assertLacpPartner, type LacpLab, wireCutDrill } from './lacp-lab.js';
import { scenarioLog } from './scenario-log.js';

const HELD = 'for d in bond0 eth1 eth2; do echo "$d $(nmcli -g GENERAL.CONNECTION device show "$d")"; done';
// After a boot NM holds eth0 too (the lab's seed unit addresses it): our profiles only.
const OURS = 'nmcli -t -f NAME,TYPE,DEVICE connection show --active | grep -E "^(br-ex|ovs-[a-z0-9-]+):" | LC_ALL=C sort';
const PROFILES = 'br-ex:ovs-bridge:br-ex\novs-if-br-ex:ovs-interface:br-ex\novs-if-phys0:bond:bond0\novs-port-br-ex:ovs-port:br-ex\n'
  + 'ovs-port-phys0:ovs-port:bond0\novs-slave-eth1:802-3-ethernet:eth1\novs-slave-eth2:802-3-ethernet:eth2';
/** NM's DHCPv6 client on a device: the DUID, IAID and address it holds (the lease's other options left out). */
export const dhcp6Of = (dev: string) => `nmcli -t -f DHCP6 device show ${dev} | grep -E ":(dhcp6_client_id|iaid|ip6_address) = " | sed -E "s/^DHCP6\\.OPTION\\[[0-9]+\\]://" | LC_ALL=C sort`;

/** The bond under test: its NM options and what differs by mode. */
export interface NmV6Bond {
  /** In probe names and messages. */
  tag: string;
  /** NM's bond.options. */
  nmOptions: string;
  /** Before the bond is made (the lab's leftovers). */
  prepare?(l: VmUplinkLab): Promise<void>;
  /** The cable drill with the host reached at its IPv6 address (`at`); what the lab's pings lost. */
  cut(t: ExecutionContext, at: VmUplinkLab, lab: string): Promise<{ lost: number; gap: number; what: string }>;
  /** Asserted before the move, after the rollback, the move, the cut and the power cycle (LACP: the partner is live). */
  live?(t: ExecutionContext, when: string, moved: boolean): Promise<void>;
}

/** Active-backup (primary eth1): eth1's cable cut, the bond fails over to eth2 and back. */
export const ACTIVE_BACKUP: NmV6Bond = {
  tag: 'bond', nmOptions: 'mode=active-backup,miimon=100,updelay=200,primary=eth1',
  cut: async (t, at, lab) => {
    t.is(await activePort(at), 'eth1');
    return { ...await failoverDrill(t, at, lab, 'eth1', 'eth2'), what: 'eth1 cut' };
  },
};

/** As the installer's profile gives them (mode first), and as NM's profile reads sorted. */
const LACP_OPTIONS = 'mode=802.3ad,lacp_rate=fast,miimon=100,xmit_hash_policy=layer3+4';

/**
 * LACP (fast rate, layer3+4) with the second VM as both switch and router: a wire cut at both ends. The host's
 * spare eth3 sits on the lab bridge, where the RAs are: it is left down and unmanaged (across the power cycle
 * too), or NM's default profile would take a second SLAAC address and RA route there (the AB lab has no eth3).
 */
export function lacpV6Bond(lacp: LacpLab): NmV6Bond {
  return {
    tag: 'lacp', nmOptions: LACP_OPTIONS,
    prepare: async (l) => {
      await l.sh("printf '[keyfile]\\nunmanaged-devices+=interface-name:eth3\\n' >/etc/NetworkManager/conf.d/90-lab-eth3.conf && nmcli general reload conf && ip link set eth3 down");
    },
    cut: async (t, at, lab) => ({ ...await wireCutDrill(t, { ...lacp, l: at }, lab), what: 'eth1 wire cut' }),
    live: async (t, when, moved) => {
      const bond = await assertLacpPartner(t, lacp, ` ${when}`);
      t.regex(bond, /Bonding Mode: IEEE 802\.3ad Dynamic link aggregation\nTransmit Hash Policy: layer3\+4[\s\S]*LACP rate: fast/, when);
      if (moved) {
        t.deepEqual((await lacp.l.sh('nmcli -g bond.options connection show ovs-if-phys0')).trim().split(',').sort(), LACP_OPTIONS.split(',').sort(), `NM's bond profile has the live bond's options ${when}`);
      }
    },
  };
}

/** Lines as a set: NM's profiles enslave a bond's ports in whichever order their activations end. */
const lineSet = (text: string) => text.trim().split('\n').sort();

/** Until NM's view of our profiles is PROFILES (they take a while), or the last after 90 s. */
async function ours(l: VmUplinkLab): Promise<string> {
  let out = '';
  for (let i = 0; i < 30 && out !== PROFILES; i++) {
    out = (await l.sh(OURS)).trim();
    if (out !== PROFILES) await sleep(3000);
  }
  return out;
}

/** The whole nm scenario on the lab `l` (two VMs, the second the router; `l.role` runs the nm backend). */
export async function nmIpv6AutoBondScenario(t: ExecutionContext, l: VmUplinkLab, lab: string, kind: V6Kind, prefix: string, bond = ACTIVE_BACKUP): Promise<void> {
  const { step } = scenarioLog(t, lab);
  let at = Date.now();
  await bond.prepare?.(l);
  const [addr, len] = await routedBond(l, kind, prefix, bond.nmOptions);
  step(`host on bond0 (NM, ${bond.tag}; IPv4 static, ${kind} ${addr}/${len})`, at);
  await bond.live?.(t, 'before the move', false);
  const held = (await l.sh(HELD)).trim();
  t.is(held, 'bond0 bond0\neth1 bond0-eth1\neth2 bond0-eth2', 'NM holds the bond and its ports under their own profiles');
  if (kind === 'slaac') t.regex(await l.sh('ip -o -6 addr show dev bond0 scope global'), /dynamic noprefixroute/, 'NM\'s own SLAAC');
  else t.regex(await peerSh(l, `cat ${LEASES6}`), new RegExp(` ${esc(addr!)} `), 'the DHCPv6 server leased it');
  const lease = kind === 'dhcp6' ? (await l.sh(dhcp6Of('bond0'))).trim() : '';
  if (kind === 'dhcp6') t.regex(lease, new RegExp(`dhcp6_client_id = [0-9a-f:]+\\n[\\s\\S]*ip6_address = ${esc(addr!)}`), lease);
  const before = await l.sh(V6_SNAPSHOT);
  t.regex(before, raDefault('bond0', '\\d+'));
  const nmBefore = await l.sh(NM_DEVICES);
  await recordProbe(l, `probe-nm-${bond.tag}-${kind}-fresh`);

  // Injected failure: a check target nothing answers; NM gives bond0 its IPv6 (and IPv4) back.
  const dead = l.gw.replace(/\.\d+$/, '.254');
  await rollbackDrill(t, l, { vars: { configure_ovs_check_targets: [dead] }, target: dead, uplink: 'bond0', snapshot: V6_SNAPSHOT, before,
    what: `the bond, its static IPv4, its ${kind} address and RA default route`, settleMs: 150_000 });
  t.is(await l.sh(NM_DEVICES), nmBefore, 'NetworkManager holds the bond and its ports again as before');
  t.is((await l.sh(HELD)).trim(), held, 'under NM\'s own profiles');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show'), /^ovs-/m, 'no ovs-* profile left');
  await bond.live?.(t, 'after the rollback', false);

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move);
  t.is(await ours(l), PROFILES, 'MCO\'s profile set with the bond and its ports, all active');
  t.notRegex(await l.sh('nmcli -t -f NAME connection show --active'), /^bond0(-eth\d)?$/m, 'NM\'s own bond profiles are not active');
  t.deepEqual(await v6Addr(l, 'br-ex', prefix), [addr, len], `the same ${kind} address on br-ex`);
  t.regex(await l.sh('ip -6 route show default'), raDefault('br-ex', '48'), 'the RA\'s default route on br-ex at metric 48');
  t.is((await l.sh('ip -o addr show dev bond0 scope global')).trim(), '', 'bond0 holds no address');
  await bond.live?.(t, 'after the move', true);
  const ip6 = (await l.sh('nmcli -g ipv6.method,ipv6.addr-gen-mode,ipv6.token,ipv6.dhcp-duid connection show ovs-if-br-ex')).trim().replaceAll('\\', '');
  if (kind === 'slaac') t.regex(ip6, new RegExp(`^auto\\neui64\\n${esc(interfaceId(addr!))}(\\n|$)`), `ovs-if-br-ex makes the bond's address from its interface identifier:\n${ip6}`);
  else {
    t.deepEqual((await l.sh(dhcp6Of('br-ex'))).trim(), lease, 'br-ex\'s client sent the bond\'s DUID and IAID and holds the same address');
    const leases = (await peerSh(l, `cat ${LEASES6}`)).split('\n').filter((s) => s.includes(`${prefix}::`));
    t.is(leases.length, 1, `one lease, the same address:\n${leases.join('\n')}`);
    t.true(leases[0]?.includes(` ${addr} `), leases[0]);
  }
  await reachV6(t, l, addr!);
  await recordProbe(l, `probe-nm-${bond.tag}-${kind}-moved`);
  const bondBefore = await l.sh(BOND_LINES);
  at = Date.now();
  await assertSecondRunIdle(t, l, V6_SNAPSHOT, await l.sh(V6_SNAPSHOT));
  step('second run and --check', at);

  // eth1's cable cut, pinged over IPv6: the bond under br-ex carries on over eth2.
  at = Date.now();
  const cut = await bond.cut(t, atAddress(l, addr!, l.gw), lab);
  step(`${cut.what} (ping -6 ${addr}): ${cut.lost} of 300 lost, longest gap ${cut.gap.toFixed(2)} s; drill`, at);
  await bond.live?.(t, 'after the cut', true);
  t.is(await ours(l), PROFILES, 'every profile still active after the cable came back');
  t.deepEqual(await v6Addr(l, 'br-ex', prefix), [addr, len], `the same ${kind} address on br-ex after the failover`);

  await afterPowerCycle(t, l, lab, prefix, [addr!, len!], bondBefore, step);
  await bond.live?.(t, 'after the power cycle and the runs after it', true);
}

/** A power cycle: the boot oneshot makes our profiles again (in /run), the same address and RA route on br-ex. */
async function afterPowerCycle(t: ExecutionContext, l: VmUplinkLab, lab: string, prefix: string, [addr, len]: string[], bondBefore: string,
  step: (what: string, since: number) => void): Promise<void> {
  let at = Date.now();
  // Waited for together: the address on br-ex and our seven profiles active (NM activates them one by one).
  const want = new RegExp(`inet6 ${esc(addr!)}/${len} [\\s\\S]*^${esc(PROFILES)}$`, 'm');
  await rebootKeepsBond(t, l, lab, `ip -o -6 addr show dev br-ex scope global -tentative; ${OURS}`, want, bondBefore, { active: OURS, profiles: PROFILES });
  step('reboot (the same IPv6 address on br-ex, our profiles active)', at);
  let routes = '';
  for (let i = 0; i < 30 && !raDefault('br-ex', '48').test(routes); i++) {
    routes = await l.sh('ip -6 route show default');
    if (!raDefault('br-ex', '48').test(routes)) await sleep(2000);
  }
  t.regex(routes, raDefault('br-ex', '48'), 'after the reboot the RA\'s default route on br-ex at metric 48');
  t.deepEqual(lineSet(await l.sh(BOND_LINES)), lineSet(bondBefore), 'bond options and ports as before');
  await reachV6(t, l, addr!);
  at = Date.now();
  await idleAfterReboot(t, l);
  step('runs after the reboot (refused beside eth0, then idle)', at);
  t.deepEqual(await v6Addr(l, 'br-ex', prefix), [addr, len], 'the same address on br-ex still');
  t.is(await ours(l), PROFILES, 'the seven profiles still active after the runs');
}
