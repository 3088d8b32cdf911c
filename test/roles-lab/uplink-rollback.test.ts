// ovs_gateway's commit-confirmed move on a real lab host over SSH: a wrong gateway and a withheld
// confirmation each roll the host back to its old configuration (the rollback seconds are printed),
// a confirmed move keeps the session usable, br-ex1 from /etc/ovnk/extra_bridge appears and
// disappears, and a reboot re-applies br-ex through the boot-time oneshot.
import test from 'ava';
import { execa } from 'execa';
import { runModule } from '../../src/engine/runner/run-module.js';
import { labDown, labReboot, labUp } from '../../src/lab/index.js';
import type { SshTransport } from '../../src/transports/ssh.js';
import { createTransport } from '../../src/transports/index.js';
import { ETH1_SH } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
let t0: SshTransport;
let ip = '';
let gw = '';

test.before(async () => {
  await labDown(LAB).catch(() => {});
  const up = await labUp({ name: LAB, hosts: 1 });
  const h = up.state.hosts[0]!;
  ip = h.ip;
  gw = up.state.subnet.gateway;
  t0 = createTransport(h.name, { host: h.ip, user: 'root', privateKeyFile: up.state.keyFile, knownHostsFile: up.state.knownHostsFile, netns: up.state.netns }) as SshTransport;
  await t0.connect();
});
test.after.always(async () => { await t0?.close(); await labDown(LAB); });

const base = { mode: 'uplink', datapath_type: 'netdev' };
const sh = async (cmd: string) => (await t0.exec(cmd)).stdout;
/** The old configuration: address and default route on eth0, no OVS bridge. */
async function assertRestored(t: import('ava').ExecutionContext): Promise<void> {
  t.regex(await sh('ip -o -4 addr show dev eth0'), new RegExp(`inet ${ip.replaceAll('.', '\\.')}/24`));
  t.regex(await sh('ip route show default'), new RegExp(`default via ${gw.replaceAll('.', '\\.')} dev eth0`));
  t.is((await sh('ovs-vsctl list-br')).trim(), '');
  t.is((await sh('nft list tables netdev')).trim(), '');
}

test.serial('a wrong gateway fails the connectivity check: the host rolls back and says why', async (t) => {
  // An unused address on the host's own subnet: the route is accepted, nothing answers there.
  const wrong = gw.replace(/\.\d+$/, '.254');
  const e = await t.throwsAsync(runModule('ovs_gateway', { ...base, gateway: wrong, confirm_timeout: 30 }, { transport: t0 }));
  t.regex(e!.message, new RegExp(`rolled back after [\\d.]+ s: connectivity check failed: ${wrong.replaceAll('.', '\\.')} does not answer through br-ex`));
  t.regex(e!.message, /--- ip\.txt[\s\S]*br-ex[\s\S]*--- ovs-vsctl-show\.txt[\s\S]*--- journal/);
  t.log(`wrong gateway: ${/rolled back after ([\d.]+) s/.exec(e!.message)![1]} s from start to rolled back`);
  await assertRestored(t);
});

test.serial('a withheld confirmation rolls the host back within the timeout', async (t) => {
  const started = Date.now();
  const e = await t.throwsAsync(runModule('ovs_gateway', { ...base, confirm: false, confirm_timeout: 10 }, { transport: t0 }));
  t.regex(e!.message, /rolled back after ([\d.]+) s: no confirmation from hostwire within 10 s/);
  const hostSeconds = Number(/rolled back after ([\d.]+) s/.exec(e!.message)![1]);
  t.true(hostSeconds >= 10 && hostSeconds < 25, `host took ${hostSeconds} s`);
  t.log(`withheld confirmation (timeout 10 s): host rolled back ${hostSeconds} s after the start; hostwire reported after ${(Date.now() - started) / 1000} s`);
  await assertRestored(t);
});

test.serial('a confirmed move keeps the session; a second run changes nothing', async (t) => {
  const r = await runModule('ovs_gateway', base, { transport: t0 });
  t.true(r.changed);
  t.regex(await sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${ip.replaceAll('.', '\\.')}/24`));
  t.regex(await sh('ip route show default'), /dev br-ex metric 48/);
  t.false((await runModule('ovs_gateway', base, { transport: t0 })).changed);
  t.log(`connections used: ${t0.stats.connects}`);
});

test.serial('br-ex1 appears for /etc/ovnk/extra_bridge and disappears with it, giving the NIC its address back', async (t) => {
  await sh(`${ETH1_SH} && mkdir -p /etc/ovnk && echo eth1 >/etc/ovnk/extra_bridge`);
  const add = await runModule('ovs_gateway', base, { transport: t0 });
  t.regex(String(add.msg), /move eth1 into br-ex1/);
  t.is((await sh('ovs-vsctl list-ports br-ex1')).trim(), 'eth1');
  t.regex(await sh('ip -o -4 addr show dev br-ex1'), /192\.168\.77\.1\/24/);
  await sh('rm /etc/ovnk/extra_bridge');
  const check = await runModule('ovs_gateway', base, { transport: t0, check: true });
  t.regex(String(check.msg), /remove br-ex1 and restore its NIC/);
  t.is((await sh('ovs-vsctl list-br')).trim().split('\n').length, 2, '--check changed nothing');
  await runModule('ovs_gateway', base, { transport: t0 });
  t.is((await sh('ovs-vsctl list-br')).trim(), 'br-ex');
  t.regex(await sh('ip -o -4 addr show dev eth1'), /192\.168\.77\.1\/24/);
  t.false((await runModule('ovs_gateway', base, { transport: t0 })).changed);
});

test.serial('after a reboot the boot-time oneshot puts the address back on br-ex', async (t) => {
  await t0.close();
  try {
    await labReboot(`${LAB}-1`, { name: LAB, timeoutMs: 120_000 });
  } catch (e) {
    // What the host looks like from its own namespace (the lab's, not the machine's).
    const look = await execa('ip', ['netns', 'exec', `hw-${LAB}-1`, 'sh', '-c', 'ip -br addr; ip route; ip -br link'], { reject: false });
    t.log(look.stdout, look.stderr);
    throw e;
  }
  await t0.connect();
  t.is((await sh('systemctl is-active hostwire-configure-ovs.service')).trim(), 'active');
  t.regex(await sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${ip.replaceAll('.', '\\.')}/24`));
  t.is((await sh('ip -o -4 addr show dev eth0')).trim(), '');
  t.false((await runModule('ovs_gateway', base, { transport: t0 })).changed);
});
