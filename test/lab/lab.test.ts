// Real throw-away hosts on this machine (root, systemd-nspawn, mmdebstrap). Serial: labs share 2 cores.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { Command } from 'commander';
import { parse } from 'yaml';
import { registerLabCommands } from '../../src/lab/cli.js';
import { ensureRootfs } from '../../src/lab/rootfs.js';
import { labDown, labUp } from '../../src/lab/lab.js';
import { labCapabilities, labList, labReboot } from '../../src/lab/lab-ops.js';
import { labInventory } from '../../src/lab/inventory.js';
import { readState, statePath, type HostState, type LabState } from '../../src/lab/state.js';
import { labCgroupDirs, labDir } from '../../src/lab/names.js';
import { isAlive } from '../../src/lab/run.js';
import { waitForHost } from '../../src/lab/wait.js';
import { testLabName } from '../helpers/lab-name.js';

// This run's names (test/helpers/lab-name.ts): another run of this file beside it has its own.
const [A, B, C] = ['hwta', 'hwtb', 'hwtc'].map(testLabName) as [string, string, string];
const LABS = [A, B, C];
test.after.always(async () => {
  for (const l of LABS) await labDown(l).catch(() => undefined);
});

/** The system ssh client inside the lab namespace, host keys checked strictly against `knownHosts`. */
function ssh(state: LabState, host: HostState, command: string, knownHosts = state.knownHostsFile, user = 'root') {
  return execa('ip', ['netns', 'exec', state.netns, 'ssh', '-i', state.keyFile, '-o', `UserKnownHostsFile=${knownHosts}`,
    '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=3',
    `${user}@${host.ip}`, command], { reject: false });
}

async function assertGone(t: import('ava').ExecutionContext, lab: string, pids: number[]): Promise<void> {
  const { stdout } = await execa('ip', ['netns', 'list']);
  t.false(stdout.split('\n').some((l) => l === `hw-${lab}` || l.startsWith(`hw-${lab}-`) || l.startsWith(`hw-${lab} `)), stdout);
  t.false(readFileSync('/proc/self/mountinfo', 'utf8').includes(`${labDir(lab)}/`));
  for (const c of labCgroupDirs(lab)) t.false(existsSync(c), c);
  t.false(existsSync(labDir(lab)));
  for (const p of pids) t.false(await isAlive(p), `pid ${p} still alive`);
}

const pidsOf = (s: LabState): number[] => s.hosts.flatMap((h) => [h.nspawnPid!, h.initPid!]);

test.serial('rootfs is built once, customised, then reused', async (t) => {
  const lines: string[] = [];
  const first = await ensureRootfs({ onProgress: (l) => lines.push(l) });
  t.log(first.built ? `rootfs built in ${first.seconds.toFixed(1)} s (${lines.length} progress lines)` : `rootfs reused: ${first.path}`);
  if (first.built) t.true(lines.some((l) => l.startsWith('mmdebstrap:')));
  t.is(readFileSync(`${first.path}/etc/machine-id`, 'utf8'), '');
  t.is(readFileSync(`${first.path}/etc/resolv.conf`, 'utf8'), '');
  t.false(existsSync(`${first.path}/etc/ssh/ssh_host_ed25519_key`));
  t.false(existsSync(`${first.path}/etc/systemd/system/multi-user.target.wants/ovn-central.service`));
  t.true(existsSync(`${first.path}/usr/bin/python3`));
  const again = await ensureRootfs();
  t.false(again.built);
  t.is(again.path, first.path);
});

test.serial('3-host lab: ssh with strict host keys, systemd running, NetworkManager keeps eth0', async (t) => {
  const started = Date.now();
  const up = await labUp({ name: A, hosts: 3 });
  const upSeconds = (Date.now() - started) / 1000;
  t.deepEqual(up.degraded, []);
  const state = up.state;
  t.deepEqual(state.hosts.map((h) => h.name), [`${A}-1`, `${A}-2`, `${A}-3`]);
  for (const host of state.hosts) {
    const r = await ssh(state, host, 'hostname; systemctl is-system-running; ip -4 -o addr show eth0; nmcli -t -f DEVICE,STATE dev');
    t.is(r.exitCode, 0, r.stderr);
    const [name, sys, addr, ...nm] = r.stdout.split('\n');
    t.is(name, host.name);
    t.is(sys, 'running');
    t.true(addr?.includes(`${host.ip}/24`), addr);
    t.true(nm.includes('eth0:connected (externally)'), nm.join(' '));
  }
  // The fixes from the lab notes hold: CAP_NET_ADMIN + writable /proc/sys/net (firewalld, sysctl), /dev/net/tun.
  const fixes = await ssh(state, state.hosts[0]!, 'firewall-cmd --state && sysctl -w net.ipv4.ip_forward=1 && test -c /dev/net/tun && echo ok');
  t.is(fixes.stdout.split('\n').pop(), 'ok', fixes.stderr);
  // The sudo-capable `hostwire` user has the lab key too.
  const sudo = await ssh(state, state.hosts[2]!, 'sudo -n id -u', state.knownHostsFile, 'hostwire');
  t.is(sudo.stdout, '0', sudo.stderr);
  // Host keys are really checked: an empty known_hosts is refused under StrictHostKeyChecking=yes.
  const empty = `${state.dir}/empty_known_hosts`;
  await writeFile(empty, '');
  const refused = await ssh(state, state.hosts[0]!, 'true', empty);
  t.is(refused.exitCode, 255);
  t.regex(refused.stderr, /Host key verification failed/);
  // The key the host serves is the one in the lab's known_hosts.
  const scan = await execa('ip', ['netns', 'exec', state.netns, 'ssh-keyscan', '-t', 'ed25519', state.hosts[1]!.ip]);
  const known = readFileSync(state.knownHostsFile, 'utf8');
  t.true(known.includes(scan.stdout.trim().split('\n').filter((l) => !l.startsWith('#'))[0]!.split(' ').slice(1).join(' ')));

  const caps = await labCapabilities(A);
  t.is(typeof caps.ipip, 'boolean');
  t.true(caps.vxlan, 'vxlan is built into every kernel this lab supports');
  const inv = labInventory(state) as { all: { hosts: Record<string, Record<string, unknown>> } };
  t.is(inv.all.hosts[`${A}-3`]!.hostwire_netns, `hw-${A}`);
  t.deepEqual(inv.all.hosts[`${A}-3`]!.hostwire_lab_capabilities, caps);

  // The CLI subcommands: `lab ssh HOST -- cmd` passes the exit code through; `lab inventory` prints YAML.
  const program = new Command('hostwire').exitOverride();
  registerLabCommands(program);
  await program.parseAsync(['lab', 'ssh', `${A}-2`, '--', 'exit 7'], { from: 'user' });
  t.is(process.exitCode, 7);
  process.exitCode = 0;
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => out.push(chunk) > 0) as typeof process.stdout.write;
  try {
    await program.parseAsync(['lab', 'inventory', '--name', A], { from: 'user' });
  } finally {
    process.stdout.write = write;
  }
  t.deepEqual(parse(out.join('')), inv);

  const downStarted = Date.now();
  await labDown(A);
  const downSeconds = (Date.now() - downStarted) / 1000;
  t.log(`3-host lab: up ${upSeconds.toFixed(1)} s (to sshd + running), down ${downSeconds.toFixed(1)} s, total ${(upSeconds + downSeconds).toFixed(1)} s`);
  await assertGone(t, A, pidsOf(state));
});

test.serial('two labs at once: distinct subnets and hosts, reboot keeps the disk', async (t) => {
  const [a, b] = await Promise.all([labUp({ name: A, hosts: 2 }), labUp({ name: B, hosts: 1 })]);
  t.not(a.state.subnet.cidr, b.state.subnet.cidr);
  t.not(a.state.netns, b.state.netns);
  for (const [s, h] of [[a.state, a.state.hosts[1]!], [b.state, b.state.hosts[0]!]] as const) {
    const r = await ssh(s, h, 'hostname');
    t.is(r.stdout, h.name);
  }
  const listed = await labList();
  t.is(listed.find((l) => l.name === A)?.status, 'up');
  t.is(listed.find((l) => l.name === B)?.status, 'up');

  const host = a.state.hosts[1]!;
  t.is((await ssh(a.state, host, 'echo kept > /root/mark; cat /etc/machine-id')).exitCode, 0);
  const before = (await ssh(a.state, host, 'cat /etc/machine-id')).stdout;
  // What lives only in the kernel (a link, a route, a sysctl) goes with the power; eth0's MAC stays.
  const mac = (await ssh(a.state, host, 'cat /sys/class/net/eth0/address; ip link add hwgone type bridge; ip route add 198.51.100.0/24 dev eth0; sysctl -qw net.ipv4.ip_forward=1')).stdout.split('\n')[0];
  const rebooted = await labReboot(`${A}-2`);
  t.is(rebooted.state, 'running');
  const after = await readState(A);
  t.not(after!.hosts[1]!.initPid, host.initPid);
  t.false(await isAlive(host.initPid!));
  t.is((await ssh(a.state, host, 'cat /root/mark /etc/machine-id')).stdout, `kept\n${before}`);
  const kernel = (await ssh(a.state, host, 'cat /sys/class/net/eth0/address; ip -o link show hwgone | wc -l; ip route show 198.51.100.0/24 | wc -l; sysctl -n net.ipv4.ip_forward')).stdout;
  t.is(kernel.trim(), `${mac}\n0\n0\n0`, 'a reboot resets links, routes and sysctls but keeps the MAC');

  // A failed unit turns up as degraded, named, instead of a hang.
  t.is((await ssh(b.state, b.state.hosts[0]!, 'systemd-run --quiet --unit=hwfail false; sleep 0.3; true')).exitCode, 0);
  const degraded = await waitForHost(b.state, b.state.hosts[0]!, Date.now() + 10_000);
  t.is(degraded.state, 'degraded');
  t.deepEqual(degraded.failedUnits, ['hwfail.service']);

  await Promise.all([labDown(A), labDown(B)]);
  await assertGone(t, A, [...pidsOf(a.state), after!.hosts[1]!.initPid!]);
  await assertGone(t, B, pidsOf(b.state));
});

test.serial('a crashed lab (nspawn killed, state left) is removed by the next lab down, and by lab up', async (t) => {
  const first = await labUp({ name: C, hosts: 2 });
  for (const h of first.state.hosts) process.kill(h.nspawnPid!, 'SIGKILL');
  // The containers outlive their nspawn: exactly what a crashed controller leaves.
  t.true(await isAlive(first.state.hosts[0]!.initPid!));
  t.is((await labList()).find((l) => l.name === C)?.status, 'up');
  await labDown(C);
  await assertGone(t, C, pidsOf(first.state));

  // Crash again, this time losing state.json too: `lab up` finds the pieces by name and starts clean.
  const second = await labUp({ name: C, hosts: 1 });
  process.kill(second.state.hosts[0]!.nspawnPid!, 'SIGKILL');
  await rm(statePath(C));
  const third = await labUp({ name: C, hosts: 1 });
  t.false(await isAlive(second.state.hosts[0]!.initPid!));
  t.is((await ssh(third.state, third.state.hosts[0]!, 'systemctl is-system-running')).stdout, 'running');
  await labDown(C);
  await assertGone(t, C, [...pidsOf(second.state), ...pidsOf(third.state)]);
});

test.serial('lab up past its timeout fails with a clear error and leaves nothing', async (t) => {
  const err = await t.throwsAsync(labUp({ name: B, hosts: 1, timeoutMs: 1 }));
  t.regex(err!.message, new RegExp(`lab up ${B} failed: ${B}-1 \\(10\\.[\\d.]+\\) not ready before the timeout`));
  await assertGone(t, B, []);
});
