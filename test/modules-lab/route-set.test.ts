// route_set on a real lab host: the routes inside a pod network converge to an exact set (add,
// replace a wrong gateway, delete a stale one), routes outside it and the kept subnet stay.
import test, { type ExecutionContext } from 'ava';
import { convergeCycle, labHost, moduleRunner, type LabHost, type ModuleRunner } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
let host: LabHost;
let gw: string;

test.before(async () => {
  host = await labHost(LAB);
  // Two neighbours on eth0's network (.201, .202) and the node's own subnet on a bridge.
  gw = (await host.sh("ip -4 -o addr show dev eth0 | awk '{print $4}'")).trim().replace(/\.\d+\/\d+$/, '');
  await host.sh('ip link add hwc0 type bridge && ip addr add 10.244.1.1/24 dev hwc0 && ip link set hwc0 up && ip route add 192.0.2.0/24 via ' + `${gw}.1`);
});

test.after.always(async () => {
  await host?.close();
});

const run: ModuleRunner = (name, args, o) => moduleRunner(host)(name, args, o);
const read = "ip -4 route show | LC_ALL=C sort";
const args = () => ({
  network: '10.244.0.0/16',
  keep: ['10.244.1.0/24'],
  routes: [
    { dst: '10.244.2.0/24', via: `${gw}.201`, dev: 'eth0' },
    { dst: '10.244.3.0/24', via: `${gw}.202`, dev: 'eth0' },
  ],
});
const cycle = (t: ExecutionContext, drift: string) => convergeCycle(t, host, run, 'route_set', args(), drift, read);

test.serial('a wrong gateway is replaced', async (t) => {
  const checked = await cycle(t, `ip route replace 10.244.3.0/24 via ${gw}.209 dev eth0`);
  t.regex(checked.diff![0].before!, /10\.244\.3\.0\/24 via .*\.209 dev eth0/);
});

test.serial('a stale route and a missing one: deleted and added; outside routes and the kept subnet stay', async (t) => {
  await host.sh('ip route del 10.244.3.0/24');
  const checked = await cycle(t, `ip route add 10.244.9.0/24 via ${gw}.201 dev eth0 && ip route del 10.244.2.0/24`);
  t.deepEqual(checked.diff!.map((d) => d.header).sort(), [`add route 10.244.2.0/24 via ${gw}.201 dev eth0`, `delete stale route 10.244.9.0/24 via ${gw}.201 dev eth0`].sort());
  const routes = await host.sh(read);
  t.regex(routes, /^10\.244\.1\.0\/24 dev hwc0/m);
  t.regex(routes, /^192\.0\.2\.0\/24 via/m);
});

test.serial('no leases left: every peer route goes, purge false keeps them', async (t) => {
  t.false((await run('route_set', { ...args(), routes: [], purge: false })).changed);
  const r = await run('route_set', { ...args(), routes: [] });
  t.true(r.changed);
  t.notRegex(await host.sh(read), /10\.244\.[23]\.0/);
  t.regex(await host.sh(read), /10\.244\.1\.0\/24 dev hwc0/);
});
