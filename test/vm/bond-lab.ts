// VM-tier uplink scenarios: one VM host whose address sits on a bond (eth1+eth2 on the lab bridge, eth0
// down), the configure_ovs role run through the real playbook runner, and what the move may touch read
// back whole (to assert an exact restore and that --check / a second run touch nothing).
import type { ExecutionContext } from 'ava';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { labDown, labInventory, labInventoryYaml, labUp, type LabState, type LabUpOptions } from '../../src/lab/index.js';
import type { HostState } from '../../src/lab/state.js';
import { sleep } from '../../src/lab/run.js';
import { shellJoin } from '../../src/transports/quote.js';
import { GATEWAY_PROBE } from '../../src/modules/ovs_gateway/probe.js';
import { failure, SNAPSHOT } from '../roles-lab/uplink-helpers.js';
import { runRole, type RoleRun } from '../roles-lab/sdn-agent-helpers.js';
import { vmSh } from './vm-ssh.js';

/** The move's confirmation window on an emulated VM (the apply alone took 40-60 s under load). */
export const CONFIRM_TIMEOUT = 180;

export interface VmUplinkLab {
  state: LabState;
  host: HostState;
  ip: string;
  gw: string;
  sh(cmd: string, timeoutMs?: number): Promise<string>;
  /** Runs configure_ovs (mode uplink, ovs backend, datapath auto) with extra variables. */
  role(vars?: Record<string, unknown>, check?: boolean): Promise<RoleRun>;
  /** The test's scratch directory and playbook (the host under test only). */
  dir: string;
  playbook: string;
}

// The ovs backend: bonds and VLANs move with it only (the nm backend refuses them so far).
const BASE_VARS = { configure_ovs_mode: 'uplink', configure_ovs_backend: 'ovs', configure_ovs_confirm_timeout: CONFIRM_TIMEOUT };

/**
 * The same lab with the host reached at another of its addresses (its node address on a VLAN, IPv6): the
 * inventory's ansible_host and sh use `ip`, whose host key is the lab's key for the host (known_hosts line added).
 */
export function atAddress(l: VmUplinkLab, ip: string, gw: string): VmUplinkLab {
  const known = readFileSync(l.state.knownHostsFile, 'utf8').split('\n').filter((line) => line.startsWith(`${l.host.ip} `));
  if (!known.length) throw new Error(`no known_hosts line for ${l.host.ip}`);
  appendFileSync(l.state.knownHostsFile, known.map((line) => `${ip}${line.slice(l.host.ip.length)}\n`).join(''));
  const inv = labInventory(l.state) as { all: { hosts: Record<string, Record<string, unknown>> } };
  inv.all.hosts[l.host.name]!.ansible_host = ip;
  const inventory = path.join(l.dir, `inventory-${ip.replace(/[^0-9a-f]/gi, '_')}.yml`);
  writeFileSync(inventory, stringify(inv, { lineWidth: 0 }));
  const host = { ...l.host, ip };
  return { ...l, ip, gw,
    sh: (cmd, timeoutMs) => vmSh(l.state, host, cmd, timeoutMs),
    role: (vars = {}, check = false) => runRole(l.playbook, inventory, { ...BASE_VARS, ...vars }, check) };
}

/** One VM host with `nics` NICs, torn down in t.teardown (and by the owner watchdog if the worker dies). */
export async function vmUplinkLab(t: ExecutionContext, lab: string, nics: number, extra: Partial<LabUpOptions> = {}): Promise<VmUplinkLab> {
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${lab}-`));
  t.teardown(async () => {
    await labDown(lab).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  await labDown(lab).catch(() => undefined);
  const started = Date.now();
  const up = await labUp({ name: lab, hosts: 1, vms: 1, vm: { nics }, vmTimeoutMs: 15 * 60_000, ...extra });
  t.log(`VM up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const { state } = up;
  const host = state.hosts[0]!;
  const inventory = path.join(dir, 'inventory.yml');
  const playbook = path.join(dir, 'ovs.yml');
  writeFileSync(inventory, labInventoryYaml(state));
  // The first host only: others (a far end) are the test's to set up.
  writeFileSync(playbook, `- hosts: ${host.name}\n  gather_facts: false\n  roles:\n    - configure_ovs\n`);
  return {
    state, host, ip: host.ip, gw: state.subnet.gateway, dir, playbook,
    sh: (cmd, timeoutMs) => vmSh(state, host, cmd, timeoutMs),
    role: (vars = {}, check = false) => runRole(playbook, inventory, { ...BASE_VARS, ...vars }, check),
  };
}

/**
 * Moves the host's address from eth0 onto bond0 (`bondArgs`, ports eth1+eth2; eth0 left down) the way an
 * installer leaves a bonded host: kernel devices, no NetworkManager profile. Detached (the session's own
 * path moves), then waits until the host answers on the same address through the bond.
 */
export async function bondTheHost(l: VmUplinkLab, bondArgs: string[]): Promise<void> {
  const steps = [
    'for d in eth0 eth1 eth2; do nmcli device set "$d" managed no 2>/dev/null || true; done',
    `ip link add bond0 type bond ${shellJoin(bondArgs)}`,
    'ip link set eth1 down', 'ip link set eth2 down',
    'ip link set eth1 master bond0', 'ip link set eth2 master bond0',
    'ip link set bond0 up',
    'ip addr flush dev eth0', 'ip link set eth0 down',
    `ip addr add ${shellJoin([`${l.ip}/24`])} dev bond0`,
    `ip route replace default via ${shellJoin([l.gw])} dev bond0`,
    // The gateway (the lab namespace, where the controller is) learns the address's new MAC.
    `ping -c3 -W2 ${shellJoin([l.gw])} >/dev/null || true`,
  ].join(' && ');
  // The unit moves the session's own path a moment after systemd-run returns; on a loaded machine ssh had not
  // closed yet (seen at load 34: rc 255, the connection closed by the VM, nothing on stderr): the poll tells.
  await l.sh(shellJoin(['systemd-run', '--quiet', '--collect', '--unit=vm20-bond', 'sh', '-c', `sleep 3; ${steps}`]))
    .catch((e: Error) => { if (!/: rc=255: /.test(e.message)) throw e; });
  const until = Date.now() + 300_000;
  for (;;) {
    await sleep(3000);
    const out = await l.sh('ip -o -4 addr show dev bond0 2>/dev/null; true', 60_000).catch(() => '');
    if (out.includes(`inet ${l.ip}/`)) return;
    if (Date.now() > until) throw new Error(`bond0 does not hold ${l.ip} after 300 s:\n${await l.sh('ip -br addr; systemctl status vm20-bond; true').catch((e: Error) => e.message)}`);
  }
}

/** Everything the move touches (uplink-helpers' SNAPSHOT) plus the bond's mode, options and ports. */
export const BOND_SNAPSHOT = `${SNAPSHOT}; echo "# bond"; grep -E "^(Bonding Mode|Primary Slave|MII Polling|Up Delay|Down Delay|Slave Interface)" /proc/net/bonding/bond0`;

/** The active port of bond0 (active-backup). */
export const activePort = async (l: VmUplinkLab): Promise<string> => (await l.sh('cat /sys/class/net/bond0/bonding/active_slave')).trim();

/** The longest run of lost replies in `ping -i` output (seconds), from the icmp_seq numbers that came back. */
export function longestGap(stdout: string, intervalS: number, sent: number): number {
  const seqs = [...stdout.matchAll(/icmp_seq=(\d+)/g)].map((m) => Number(m[1]));
  let last = 0;
  let worst = 0;
  for (const s of [...seqs, sent + 1]) {
    worst = Math.max(worst, s - last - 1);
    last = s;
  }
  return worst * intervalS;
}

/** Seconds of the day of the first journal line (`Nov 28 05:29:39.377918 host unit[pid]: ...`) matching `line`. */
export function journalSeconds(text: string, line: RegExp): number | undefined {
  for (const l of text.split('\n')) {
    const m = /^\w{3} +\d+ (\d\d):(\d\d):(\d\d(?:\.\d+)?) /.exec(l);
    if (m && line.test(l)) return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  }
  return undefined;
}

export { failure };

/** The EUI-64 link-local the kernel derives from a MAC (a bond's, whose failover NA carries it to the far end). */
export function eui64(mac: string): string {
  const b = mac.split(':').map((x) => parseInt(x, 16));
  b[0]! ^= 2;
  const w = [b[0]! << 8 | b[1]!, b[2]! << 8 | 0xff, 0xfe00 | b[3]!, b[4]! << 8 | b[5]!];
  return `fe80::${w.map((x) => x.toString(16)).join(':')}`;
}

export const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The move every bond scenario asserts: it changed, the address is on br-ex, bond0 is br-ex's one port on the kernel datapath. */
export async function assertMovedOntoBrEx(t: ExecutionContext, l: VmUplinkLab, move: RoleRun, port = 'bond0'): Promise<void> {
  t.is(move.summary.exitCode, 0, failure(move));
  t.true(move.changed.length > 0);
  const family = l.ip.includes(':') ? '-6' : '-4';
  t.regex(await l.sh(`ip -o ${family} addr show dev br-ex scope global`), new RegExp(`inet6? ${esc(l.ip)}/(24|64)`), 'same address, now on br-ex (reached over SSH on it)');
  t.is((await l.sh('ovs-vsctl list-ports br-ex')).trim(), port);
  t.is((await l.sh('ovs-vsctl get bridge br-ex datapath_type')).trim(), 'system', 'datapath auto picks the kernel datapath on a VM');
  t.regex(await l.sh('ovs-dpctl show'), new RegExp(`system@ovs-system[\\s\\S]*port \\d+: ${esc(port)}(\\s|$)`, 'm'));
}

/** After the move: a second run and --check change nothing and leave the host as `snapshot` read it then (`moved`). */
export async function assertSecondRunIdle(t: ExecutionContext, l: VmUplinkLab, snapshot: string, moved: string): Promise<void> {
  const again = await l.role();
  t.is(again.summary.exitCode, 0, failure(again));
  t.deepEqual(again.changed, [], 'a second run changes nothing');
  const check = await l.role({}, true);
  t.is(check.summary.exitCode, 0, failure(check));
  t.deepEqual(check.changed, [], '--check finds nothing to change');
  t.is(await l.sh(snapshot), moved, 'the second run and --check touched nothing');
}

/** The module's own probe output, kept as recorded real output for the pure tests when HW_RECORD_DIR is set. */
export async function recordProbe(l: VmUplinkLab, name: string): Promise<void> {
  const out = process.env.HW_RECORD_DIR;
  if (!out) return;
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, `${name}.txt`), await l.sh(GATEWAY_PROBE, 120_000));
}
