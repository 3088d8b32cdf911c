// VM tier (npm run test:vm), issue 20: an IPv6-only node (a static IPv6 address and IPv6 default route on
// an active-backup bond of two NICs, no IPv4 anywhere on the uplink, eth0 down) moves onto br-ex with the
// kernel datapath, hostwire connected over IPv6 all along: the address and default route are on br-ex
// afterwards, SSH and ping answer over IPv6 on the same address, and a second run and --check change nothing.
import test from 'ava';
import { run, sleep } from '../../src/lab/run.js';
import { shellJoin } from '../../src/transports/quote.js';
import { labPing } from '../helpers/lab-ping.js';
import { assertMovedOntoBrEx, assertSecondRunIdle, atAddress, BOND_SNAPSHOT, esc, vmUplinkLab } from './bond-lab.js';

const LAB = 'v21v6';
const GW6 = 'fd21:6::1';
const HOST6 = 'fd21:6::11';

test.serial('IPv6-only bond uplink on a VM: move over IPv6, idempotent, --check', async (t) => {
  t.timeout(25 * 60_000, 'the scenario\'s own deadline (below the VM tier\'s 30 min)');
  const started = Date.now();
  const step = (what: string, since: number) => t.log(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`);
  const lab = await vmUplinkLab(t, LAB, 3);
  // The lab's namespace is the IPv6 gateway (an address on its bridge).
  await run('ip', ['-n', lab.state.netns, '-6', 'addr', 'add', `${GW6}/64`, 'dev', lab.state.bridge, 'nodad']);
  let at = Date.now();
  const steps = ['for d in eth0 eth1 eth2; do nmcli device set "$d" managed no 2>/dev/null || true; done',
    'ip link add bond0 type bond mode active-backup miimon 100', 'ip link set eth1 down', 'ip link set eth2 down',
    'ip link set eth1 master bond0', 'ip link set eth2 master bond0', 'ip link set bond0 up',
    `ip -6 addr add ${HOST6}/64 dev bond0 nodad`, `ip -6 route replace default via ${GW6} dev bond0`,
    'ip addr flush dev eth0', 'ip link set eth0 down', `ping -6 -c3 -W2 ${GW6} >/dev/null || true`].join(' && ');
  await lab.sh(shellJoin(['systemd-run', '--quiet', '--collect', '--unit=v21-v6', 'sh', '-c', `sleep 1; ${steps}`]));
  const l = atAddress(lab, HOST6, GW6);
  let held = '';
  for (let i = 0; i < 100 && !held.includes(`inet6 ${HOST6}/64`); i++) {
    await sleep(3000);
    held = await l.sh('ip -o -6 addr show dev bond0 scope global 2>/dev/null; true', 60_000).catch(() => '');
  }
  t.regex(held, new RegExp(`inet6 ${esc(HOST6)}/64`), 'the host answers SSH over IPv6 on bond0');
  step('host on bond0 (IPv6 only)', at);
  t.is((await l.sh('ip -o -4 addr show scope global')).trim(), '', 'no IPv4 address anywhere');
  t.is((await l.sh('ip -4 route show default')).trim(), '', 'no IPv4 default route');

  at = Date.now();
  const move = await l.role();
  step('move', at);
  await assertMovedOntoBrEx(t, l, move, 'bond0');
  t.regex(await l.sh('ip -6 route show default'), new RegExp(`default via ${esc(GW6)} dev br-ex (proto static )?metric 48`));
  t.is((await l.sh('ip -o addr show dev bond0 scope global')).trim(), '', 'bond0 holds no address');
  let ping = await labPing(l.state, HOST6, ['-6', '-c3', '-i0.5', '-W3']);
  for (let i = 0; i < 5 && ping.code !== 0; i++) ping = await labPing(l.state, HOST6, ['-6', '-c3', '-i0.5', '-W3']);
  t.is(ping.code, 0, `ping over IPv6 reaches the host on br-ex:\n${ping.stdout}`);
  const moved = await l.sh(BOND_SNAPSHOT);

  at = Date.now();
  await assertSecondRunIdle(t, l, BOND_SNAPSHOT, moved);
  step('second run and --check', at);
  t.log(`whole scenario: ${((Date.now() - started) / 1000).toFixed(0)} s`);
});
