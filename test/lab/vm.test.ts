// A lab mixing an nspawn host and a VM host (qemu TCG, its own Debian kernel) on one lab bridge: both are
// ordinary lab hosts (strict host keys, inventory, hostwire runs), and the VM proves a real kernel (ipip).
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { labDown, labUp } from '../../src/lab/lab.js';
import { labCapabilities, labList } from '../../src/lab/lab-ops.js';
import { labInventory, labInventoryYaml } from '../../src/lab/inventory.js';
import { labCgroupDirs, labDir } from '../../src/lab/names.js';
import { isAlive } from '../../src/lab/run.js';
import type { HostState, LabState } from '../../src/lab/state.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-vm-'));
test.after.always(async () => {
  await labDown(LAB).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

function ssh(state: LabState, host: HostState, command: string, knownHosts = state.knownHostsFile) {
  return execa('ip', ['netns', 'exec', state.netns, 'ssh', '-i', state.keyFile, '-o', `UserKnownHostsFile=${knownHosts}`,
    '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=10',
    `root@${host.ip}`, command], { reject: false });
}

const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** utime + stime of a process in seconds (clock ticks are 100 Hz on Linux). */
const cpuSeconds = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

test.serial('nspawn + VM host on one lab: ssh, real kernel (ipip), capabilities, hostwire run, clean teardown', async (t) => {
  // ~1 min on a quiet machine (plus ~1 min for the first image build); minutes when many labs share the cores.
  t.timeout(14 * 60_000);
  const progress: string[] = [];
  const up = await labUp({ name: LAB, hosts: 2, vms: 1, onProgress: (l) => progress.push(l) });
  const state = up.state;
  const [box, vm] = state.hosts as [HostState, HostState];
  t.log(`up in ${up.seconds.toFixed(1)} s (VM image ${up.vmImageBuilt ? 'built' : 'cached'}); ${up.readiness.map((r) => `${r.host} ${r.state} after ${r.seconds.toFixed(1)} s`).join(', ')}`);
  t.deepEqual([box.kind, vm.kind], ['nspawn', 'vm']);
  t.is(up.readiness[1]!.state, 'running', up.readiness[1]!.failedUnits.join(', '));
  t.log(`VM qemu pid ${vm.initPid}, RSS ${rssMb(vm.initPid!).toFixed(0)} MB, CPU time so far ${cpuSeconds(vm.initPid!).toFixed(0)} s, ${vm.vm!.memoryMb} MB guest memory, kernel ${vm.vm!.kernelRelease}`);

  // Both answer over the lab's ssh with host keys checked against the lab's known_hosts.
  for (const h of [box, vm]) {
    const r = await ssh(state, h, 'hostname; ip -4 -o addr show eth0');
    t.is(r.exitCode, 0, r.stderr);
    t.is(r.stdout.split('\n')[0], h.name);
    t.true(r.stdout.includes(`${h.ip}/24`), r.stdout);
  }
  writeFileSync(path.join(dir, 'empty_known_hosts'), '');
  t.regex((await ssh(state, vm, 'true', path.join(dir, 'empty_known_hosts'))).stderr, /Host key verification failed/);

  // A real kernel of its own: not the machine's, and ipip works (the machine's kernel has no ipip).
  const k = await ssh(state, vm, `uname -r; ip link add t0 type ipip remote ${box.ip} local ${vm.ip} && ip -d -o link show t0; ip link del t0; ping -c1 -W5 ${box.ip} >/dev/null && echo ping-ok`);
  t.is(k.exitCode, 0, k.stderr);
  const [kernel, link, ping] = k.stdout.split('\n');
  t.not(kernel, release());
  t.is(kernel, vm.vm!.kernelRelease);
  t.regex(link ?? '', new RegExp(`ipip .*remote ${box.ip.replaceAll('.', '\\.')} local ${vm.ip.replaceAll('.', '\\.')} `));
  t.is(ping, 'ping-ok');

  // Capabilities: the VM's own kernel vs the lab-wide (machine kernel) probe that nspawn hosts share.
  const vmCaps = await labCapabilities(LAB, vm.name);
  const boxCaps = await labCapabilities(LAB, box.name);
  t.deepEqual(boxCaps, state.capabilities);
  t.true(vmCaps.ipip && vmCaps.gre && vmCaps.vlan && vmCaps.openvswitch, JSON.stringify(vmCaps));
  t.log(`capabilities: nspawn ${JSON.stringify(boxCaps)}; vm ${JSON.stringify(vmCaps)}`);
  const inv = labInventory(state) as { all: { hosts: Record<string, Record<string, unknown>>; children: Record<string, { hosts: object }> } };
  t.is(inv.all.hosts[vm.name]!.hostwire_lab_kind, 'vm');
  t.is(inv.all.hosts[box.name]!.hostwire_lab_kind, 'nspawn');
  t.deepEqual(inv.all.hosts[vm.name]!.hostwire_lab_capabilities, vmCaps);
  t.deepEqual(Object.keys(inv.all.children.lab_vms!.hosts), [vm.name]);
  t.deepEqual((await labList()).find((l) => l.name === LAB)?.hosts.map((h) => `${h.name}:${h.kind}:${h.running}`), [`${box.name}:nspawn:true`, `${vm.name}:vm:true`]);

  // hostwire runs a playbook against both through the normal lab inventory (SSH transport in the lab netns).
  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'uname.yml');
  writeFileSync(inventory, labInventoryYaml(state));
  writeFileSync(playbook, '- hosts: lab\n  gather_facts: false\n  tasks:\n    - name: kernel\n      command: uname -r\n');
  const events: RunEvent[] = [];
  const run = await runPlaybook({ playbook, inventory: [inventory], retryFile: false, onEvent: (e) => events.push(e) });
  const results = Object.fromEntries(events.flatMap((e) => (e.type === 'host_result' ? [[e.result.host, e.result]] : [])));
  t.is(run.exitCode, 0, JSON.stringify(results));
  t.is(results[vm.name]?.stdout?.trim(), vm.vm!.kernelRelease);
  t.is(results[box.name]?.stdout?.trim(), release());

  const downStarted = Date.now();
  await labDown(LAB);
  t.log(`down in ${((Date.now() - downStarted) / 1000).toFixed(1)} s`);
  for (const p of [box.nspawnPid!, box.initPid!, vm.initPid!]) t.false(await isAlive(p), `pid ${p} still alive`);
  const ps = await execa('ps', ['-eo', 'args']);
  t.false(ps.stdout.split('\n').some((l) => l.startsWith('qemu-system') && l.includes(labDir(LAB))), 'a qemu of the lab is still running');
  const { stdout: netns } = await execa('ip', ['netns', 'list']);
  t.false(netns.split('\n').some((l) => l === `hw-${LAB}` || l.startsWith(`hw-${LAB}-`) || l.startsWith(`hw-${LAB} `)), netns);
  t.false(existsSync(`/sys/class/net/${vm.veth}`), `${vm.veth} in the machine's namespace`);
  t.false(readFileSync('/proc/self/mountinfo', 'utf8').includes(`${labDir(LAB)}/`));
  for (const c of labCgroupDirs(LAB)) t.false(existsSync(c), c);
  t.false(existsSync(labDir(LAB)));
});
