// configure_ovs (mode uplink, both backends: nspawn hosts, `--nm-ovs` for nm) on an uplink with a DHCPv4 lease AND a static IPv6 address: the first
// host's eth0 takes its lease through the NetworkManager profile dhcp0 (ipv4.method auto), which also holds
// ipv6.method manual with an address, an IPv6 gateway (the second host) and a static IPv6 route. The move used to
// drop the IPv6 address and its default route (a lease's addresses were left to DHCP, both families). Now: a
// withheld confirmation puts eth0 back exactly; the move keeps the lease, the static IPv6 address, the IPv6
// default route (at br-ex's metric) and the static route on br-ex, the second host answers IPv6 pings through
// br-ex, a second run and --check change nothing, and after a power cycle the boot oneshot (networkd's DHCP plus
// the static address; nm: the boot oneshot's profiles) puts them all back. ovs: the address deleted from br-ex is
// drift that --check names and a run repairs.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sleep } from '../../src/lab/run.js';
import { GATEWAY_PROBE } from '../../src/modules/ovs_gateway/probe.js';
import { shellJoin } from '../../src/transports/quote.js';
import { leaseOnEth0, moveKeepsLease, rollbackKeepsLease } from '../helpers/lab-dhcp.js';
import { labHost, rebootLabHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const V6_GW = 'fd5c:8b::1';
const V6_HOST = 'fd5c:8b::11';
const V6_NET = 'fd5c:98::/48';

async function scenario(t: ExecutionContext, backend: 'ovs' | 'nm'): Promise<void> {
  const name = testLabName(backend === 'ovs' ? 'm6dhcp6' : 'm6nmdhcp6');
  // The first build of NM with OVS (minutes, once per machine) comes before the lab is up.
  t.timeout(backend === 'nm' ? 1_200_000 : 420_000, `${name}: the test's own deadline`);
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${name}-`));
  let lab: LabHost | undefined;
  t.teardown(async () => { await lab?.close(); rmSync(dir, { recursive: true, force: true }); });
  const step = (what: string, since: number) => t.log(`step ${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
  let at = Date.now();
  lab = await labHost(name, { hosts: 2, ...(backend === 'nm' ? { nmOvs: true } : {}) });
  if (backend === 'nm') t.timeout(420_000, `${name}: the test's own deadline once the lab is up`);
  const { state } = lab;
  const lease = await leaseOnEth0(state, dir, backend === 'nm' ? { configure_ovs_backend: 'nm' } : {});
  const { role, client, server, onHost } = lease;
  const record = async (what: string) => {
    if (!process.env.HW_RECORD_DIR) return;
    mkdirSync(process.env.HW_RECORD_DIR, { recursive: true });
    writeFileSync(path.join(process.env.HW_RECORD_DIR, `probe-dhcp-static6-${backend === 'nm' ? 'nmovs-' : ''}${what}.txt`), await onHost(client, GATEWAY_PROBE));
  };
  step('lab up and lease', at);
  await onHost(server, shellJoin(['ip', 'addr', 'add', `${V6_GW}/64`, 'dev', 'eth0', 'nodad']));
  await onHost(client, shellJoin(['sh', '-c', 'nmcli connection modify dhcp0 ipv6.method manual ipv6.addresses "$1" ipv6.gateway "$2" ipv6.routes "$3" && nmcli device reapply eth0',
    'sh', `${V6_HOST}/64`, V6_GW, `${V6_NET} ${V6_GW} 300`]));
  const v6 = (dev: string) => onHost(client, `ip -o -6 addr show dev ${dev} scope global | awk '{print $4}'; ip -6 route show default dev ${dev}; ip -6 route show ${V6_NET} dev ${dev}; true`);
  let before = '';
  for (let i = 0; i < 30 && !/default via/.test(before); i++) { if (i) await sleep(500); before = await v6('eth0'); }
  t.regex(before, new RegExp(`^${V6_HOST}/64\ndefault via ${V6_GW} proto static metric \\d+ [^\n]*\n${V6_NET.replace('/', '\\/')} via ${V6_GW} proto static metric 300 `), 'the profile\'s static IPv6 on eth0');
  // A new address is tentative while DAD runs (seconds under load): ping has no source address till then.
  const ping6 = async () => {
    for (let i = 0; i < 15; i++) {
      if (i) await sleep(1000);
      if (await onHost(client, shellJoin(['ping', '-6', '-c2', '-W3', V6_GW])).then(() => true, () => false)) return true;
    }
    return false;
  };
  t.true(await ping6(), 'IPv6 to the second host before the move');
  await record('fresh');

  at = Date.now();
  await rollbackKeepsLease(t, lease);
  step('rollback drill', at);
  let back = '';
  for (let i = 0; i < 20 && back !== before; i++) { if (i) await sleep(500); back = await v6('eth0'); }
  t.is(back, before, 'the static IPv6 address and routes back on eth0 exactly');

  at = Date.now();
  await moveKeepsLease(t, lease);
  step('move', at);
  const moved = await v6('br-ex');
  // NM's routes say proto static (the ovs backend's are ip's own: proto boot, not shown).
  t.regex(moved, new RegExp(`^${V6_HOST}/64\ndefault via ${V6_GW} (proto static )?metric 48 [^\n]*\n${V6_NET.replace('/', '\\/')} via ${V6_GW} (proto static )?metric 300 `), 'the static IPv6 address, default route (metric 48) and route on br-ex');
  t.is((await onHost(client, 'ip -o -6 addr show dev eth0 scope global; ip -6 route show dev eth0 | grep -v " proto kernel "; true')).trim(), '', 'eth0 keeps no IPv6 of its own');
  t.true(await ping6(), 'IPv6 to the second host through br-ex');
  at = Date.now();
  t.deepEqual((await role()).changed, [], 'second run');
  const checked = await role({}, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
  step('second run and --check', at);
  await record('moved');
  if (backend === 'ovs') {
    // The static IPv6 address lost from br-ex is drift: --check names it, a run puts it back.
    await onHost(client, `ip addr del ${V6_HOST}/64 dev br-ex`);
    await record('lost-addr');
    t.true((await role({}, true)).changed.length > 0, '--check reports the missing IPv6 address');
    t.deepEqual((await role()).failed, []);
    t.is(await v6('br-ex'), moved, 'the address (and routes) on br-ex again');
  }

  t.log(`step reboot: SSH on br-ex ${(await rebootLabHost(lab)).toFixed(1)} s after the power cycle began`);
  let after = '';
  for (let i = 0; i < 60 && after !== moved; i++) { if (i) await sleep(1000); after = await v6('br-ex'); }
  t.is(after, moved, 'the static IPv6 address and routes on br-ex after the power cycle');
  t.regex(await onHost(client, 'ip -o -4 addr show dev br-ex'), new RegExp(`inet ${client.ip.replaceAll('.', '\\.')}/24 .*dynamic`), 'the lease on br-ex after the power cycle');
  t.deepEqual((await role()).changed, [], 'a run after the power cycle');
  if (backend === 'ovs') {
    // The reverse move from the saved .prev alone (restore_prev, as a removal runs it; no snapshot sweep after it):
    // the lease back under dhcp0, the static IPv6 address and routes on eth0 as they were (NM's, not relabelled).
    await onHost(client, 'systemd-run --quiet --wait --collect /usr/local/libexec/hostwire/configure-ovs restore br-ex');
    let restored = '';
    for (let i = 0; i < 20 && restored !== before; i++) { if (i) await sleep(500); restored = await v6('eth0'); }
    t.is(restored, before, 'restore_prev: the static IPv6 address and routes back on eth0 exactly');
    t.regex(await onHost(client, 'ip -o -4 addr show dev eth0'), / dynamic /, 'restore_prev: the lease back on eth0');
  }
}

test.serial('ovs backend: a DHCPv4 uplink with a static IPv6 address keeps both through the rollback, the move and a power cycle', (t) => scenario(t, 'ovs'));
test.serial('nm backend: a DHCPv4 uplink with a static IPv6 address keeps both through the rollback, the move and a power cycle', (t) => scenario(t, 'nm'));
