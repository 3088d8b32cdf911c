// Facts parity on a real lab host: `hostwire facts` (one exec) against `ansible -m setup` (ansible-core
// 2.14, run inside the lab's namespace) on the same host, key by key, for the facts roles read. Every
// difference hostwire keeps on purpose is named below with its reason (and in docs/facts.md); any other
// difference fails. facts.d holds a JSON, an INI and an executable fact, so ansible_local is compared too.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { labInventoryYaml } from '../../src/lab/index.js';
import { gatherFacts } from '../../src/facts/index.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-me4-'));
let host: LabHost | undefined;
test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The facts compared, as the issue lists them (patterns on top-level names). */
const COMPARED = [
  /^ansible_os_family$/, /^ansible_distribution/, /^ansible_default_ipv[46]$/, /^ansible_interfaces$/, /^ansible_(eth0|lo)$/,
  /^ansible_memtotal_mb$/, /^ansible_processor_(vcpus|nproc)$/, /^ansible_service_mgr$/, /^ansible_pkg_mgr$/, /^ansible_python/,
  /^ansible_fqdn$/, /^ansible_all_ipv[46]_addresses$/, /^ansible_local$/, /^ansible_(hostname|nodename|kernel)$/,
  /^ansible_(system|kernel_version|machine|architecture|userspace_bits|userspace_architecture|machine_id|domain)$/,
];

/** What hostwire leaves out or orders differently on purpose: dotted key -> why. */
export const DELIBERATE_DIFFERENCES: Record<string, string> = {
  'ansible_interfaces#order': 'Ansible lists /sys/class/net in directory order (not stable); hostwire in `ip -j addr` order (ifindex). Compared as a set.',
  'ansible_eth0.features': 'ethtool -k per interface: a tool run per interface for a rarely read fact; not gathered.',
  'ansible_lo.features': 'as ansible_eth0.features',
  'ansible_eth0.timestamping': 'ethtool -T per interface; not gathered.',
  'ansible_lo.timestamping': 'as ansible_eth0.timestamping',
  'ansible_eth0.hw_timestamp_filters': 'ethtool -T per interface; not gathered.',
  'ansible_lo.hw_timestamp_filters': 'as ansible_eth0.hw_timestamp_filters',
  'ansible_eth0.speed': '/sys/class/net/<if>/speed is not read (one more read per interface).',
};

async function ansibleSetup(inventory: string, name: string, netns: string): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)('ip', ['netns', 'exec', netns, 'ansible', name, '-i', inventory, '-m', 'setup'], {
    env: { ...process.env, ANSIBLE_HOST_KEY_CHECKING: 'True', ANSIBLE_PYTHON_INTERPRETER: '/usr/bin/python3', ANSIBLE_NOCOLOR: '1', ANSIBLE_LOCAL_TEMP: path.join(dir, 'atmp') },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  return (JSON.parse(stdout.slice(stdout.indexOf('{'))) as { ansible_facts: Record<string, unknown> }).ansible_facts;
}

/** JSON with sorted keys: Ansible's callback prints facts with sorted keys. */
const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

/** Differences between two values, as dotted keys (one level into mappings). */
function differences(key: string, a: unknown, h: unknown): string[] {
  const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isMap(a) && isMap(h) && key !== 'ansible_local') {
    return [...new Set([...Object.keys(a), ...Object.keys(h)])].filter((k) => canonical(a[k]) !== canonical(h[k])).map((k) => `${key}.${k}`);
  }
  return canonical(a) === canonical(h) ? [] : [key];
}

test.serial('hostwire facts match ansible -m setup key by key, but for the named deliberate differences', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  const me = host.state.hosts[0]!;
  await host.sh([
    'mkdir -p /etc/ansible/facts.d',
    `printf '%s\\n' '{"role": "edge", "n": [1, 2]}' > /etc/ansible/facts.d/site.fact`,
    `printf '%s\\n' '[general]' 'Colour = blue' 'size: 3' '[other]' 'x=1' > /etc/ansible/facts.d/ini.fact`,
    `printf '%s\\n' '#!/bin/sh' 'echo "{\\"boot\\": \\"$(cat /proc/sys/kernel/random/boot_id | cut -c1-4)x\\"}"' > /etc/ansible/facts.d/run.fact`,
    'chmod 0755 /etc/ansible/facts.d/run.fact',
    `printf '%s\\n' 'not json, not ini' > /etc/ansible/facts.d/bad.fact`,
  ].join(' && '));
  const inventory = path.join(dir, 'inventory.yml');
  writeFileSync(inventory, labInventoryYaml(host.state));
  const execsBefore = host.transport.stats.execs;
  const mine = (await gatherFacts(host.transport)) as unknown as Record<string, unknown>;
  t.is(host.transport.stats.execs - execsBefore, 1, 'facts are one remote exec');
  const theirs = await ansibleSetup(inventory, me.name, host.state.netns);

  const keys = [...new Set([...Object.keys(theirs), ...Object.keys(mine)])].filter((k) => COMPARED.some((p) => p.test(k))).sort();
  t.true(keys.length >= 25, `compared ${keys.length} facts`);
  const found: string[] = [];
  for (const k of keys) {
    if (k === 'ansible_interfaces') {
      t.deepEqual([...(mine[k] as string[])].sort(), [...(theirs[k] as string[])].sort(), k);
      continue;
    }
    found.push(...differences(k, theirs[k], mine[k]));
  }
  t.deepEqual(found.filter((d) => !(d in DELIBERATE_DIFFERENCES)), [], 'differences nobody named');
  t.deepEqual((mine.ansible_local as Record<string, unknown>).ini, { general: { colour: 'blue', size: '3' }, other: { x: '1' } });
  t.regex(String((mine.ansible_local as Record<string, unknown>).bad), /error loading facts as JSON or ini/);
});
