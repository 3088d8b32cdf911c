// configure_ovs (mode uplink) with the nm backend on a SLAAC uplink, for real: a lab host whose NM has its OVS
// plugin (`lab up --nm-ovs`, netdev datapath); its second NIC eth9 (a veth whose peer sits in a namespace of
// its own inside the host, where dnsmasq sends router advertisements every 10 s) gets its only address by
// NetworkManager's SLAAC (a profile with ipv4 disabled, ipv6.method auto: a stable-privacy identifier) and is
// the uplink (`configure_ovs_uplink: eth9`; the session stays on eth0). A withheld confirmation gives eth9 its
// profile, address and RA default route back exactly; the move puts the SAME address (ovs-if-br-ex:
// ipv6.method auto, addr-gen-mode eui64, the identifier as ipv6.token) and the RA's default route at metric 48
// on br-ex, the router's pings reach it through br-ex; a second run and --check change nothing.
// In the VM tier (npm run test:vm).
import test from 'ava';
import { shellJoin } from '../../src/transports/quote.js';
import { ACTIVE_PROFILES, brExProfiles, lineSet } from '../helpers/nm-backend.js';
import { failure, snapshot, uplinkLab } from '../roles-lab/uplink-helpers.js';
import { vmLabName } from './lab-name.js';

const ROUTER = 'fd5c:8d::1';
const NM = { configure_ovs_backend: 'nm', configure_ovs_uplink: 'eth9', configure_ovs_check_targets: [ROUTER] };
const SETUP = [
  "printf '[keyfile]\\nunmanaged-devices+=interface-name:eth9p\\n' >/etc/NetworkManager/conf.d/90-lab-eth9.conf", 'nmcli general reload conf',
  'ip link add eth9 type veth peer name eth9p', 'ethtool -K eth9 tx off >/dev/null', 'ethtool -K eth9p tx off >/dev/null',
  'ip netns add p1', 'ip link set eth9p netns p1', 'ip -n p1 link set lo up', 'ip -n p1 link set eth9p up', `ip -n p1 addr add ${ROUTER}/64 dev eth9p nodad`,
  shellJoin(['systemd-run', '--quiet', '--unit=hw-ra', 'ip', 'netns', 'exec', 'p1', 'dnsmasq', '--keep-in-foreground', '--user=root', '--port=0',
    '--interface=eth9p', '--bind-interfaces', '--enable-ra', '--ra-param=eth9p,10,600', '--dhcp-range=::,constructor:eth9p,ra-only,64,10m']),
  // A fixed route metric: with the default NM picks the next free one per activation (seen with br-ex1's NIC).
  shellJoin(['nmcli', 'connection', 'add', 'type', 'ethernet', 'con-name', 'v6auto', 'ifname', 'eth9', 'ipv4.method', 'disabled',
    'ipv6.method', 'auto', 'ipv6.route-metric', '101', 'ipv6.dns', 'fd5c:8d::53']),
  'nmcli --wait 30 connection up v6auto >/dev/null',
].join(' && ');
const V6 = 'ip -o -6 addr show dev DEV scope global -tentative | awk \'{print $4}\'; ip -6 route show default dev DEV';
const noLifetimes = (s: string) => s.replace(/ expires \d+sec/g, '');

test('nm backend, SLAAC uplink (NetworkManager\'s own): rollback exactly, the same address and RA route on br-ex, idempotent', async (t) => {
  const l = await uplinkLab(t, vmLabName(import.meta.url), 1_500_000, { nmOvs: true });
  t.timeout(290_000, 'nmv6k23s: the test\'s own deadline once the lab is up');
  await l.host.sh(SETUP);
  let eth9 = '';
  for (let i = 0; i < 30 && !/\/64\ndefault via fe80::\S+ proto ra metric 101/.test(eth9); i++) {
    await new Promise((r) => setTimeout(r, 1000));
    eth9 = await l.host.sh(V6.replaceAll('DEV', 'eth9'));
  }
  const addr = /^(fd5c:8d::\S+)\/64$/m.exec(eth9)?.[1];
  t.truthy(addr, `eth9 holds a SLAAC address and the RA's default route:\n${eth9}`);
  t.regex(await l.host.sh('ip -o -6 addr show dev eth9 scope global'), /dynamic noprefixroute/, 'NM\'s own SLAAC');
  const before = noLifetimes(await snapshot(l));

  const drill = await l.role({ ...NM, configure_ovs_confirm: false, configure_ovs_confirm_timeout: 15 });
  t.regex(failure(drill), /rolled back after [\d.]+ s: no confirmation from hostwire within 15 s/);
  t.notRegex(failure(drill), /NOT restored/);
  t.log(`withheld confirmation: ${/rolled back after ([\d.]+) s/.exec(failure(drill))?.[1]} s on the host`);
  t.is(noLifetimes(await snapshot(l)), before, 'eth9\'s address and RA default route exactly as before');
  t.is((await l.host.sh('nmcli -g GENERAL.CONNECTION device show eth9')).trim(), 'v6auto');
  t.notRegex(await l.host.sh('nmcli -t -f NAME connection show'), /ovs-/);

  const started = Date.now();
  const moved = await l.role(NM);
  t.log(`SLAAC move with the nm backend: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  t.deepEqual(moved.failed, []);
  t.deepEqual(lineSet(await l.host.sh(ACTIVE_PROFILES)), lineSet(`${brExProfiles('eth9')}eth0:802-3-ethernet:eth0\n`));
  t.is((await l.host.sh('nmcli -g ipv6.method,ipv6.addr-gen-mode,ipv6.token,ipv6.route-metric,ipv6.dns connection show ovs-if-br-ex')).replaceAll('\\', ''),
    `auto\neui64\n::${addr!.split('::')[1]}\n48\nfd5c:8d::53\n`);
  t.regex(await l.host.sh(V6.replaceAll('DEV', 'br-ex')), new RegExp(`^${addr!.replaceAll('.', '\\.')}/64\ndefault via fe80::\\S+ proto ra metric 48 `), 'the same SLAAC address and the RA default route at metric 48 on br-ex');
  t.is((await l.host.sh('ip -o addr show dev eth9 scope global')).trim(), '');
  t.regex(await l.host.sh(`ip netns exec p1 ping -n -6 -c3 -i0.3 -W2 ${addr}`), / 0% packet loss/, 'the router reaches the address through br-ex');

  t.deepEqual((await l.role(NM)).changed, [], 'second run');
  const checked = await l.role(NM, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
});
