// Pure parts of the lab, from recorded machine output (fixtures/): apt sources, mountinfo, netns names,
// subnet allocation, names (a lab test's own per run too), inventory.
import test from 'ava';
import { parse } from 'yaml';
import { mirrorLines, parseDeb822Sources, parseOneLineSources, machineMirrorLines } from '../../src/lab/apt-sources.js';
import { parseMountPoints, withLock } from '../../src/lab/fs-util.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { IPV6_ONLY_MARKER, ipv6OnlyAddress, parseNetnsList } from '../../src/lab/network.js';
import { allocateSubnet, hostIp } from '../../src/lab/subnet.js';
import { checkLabName, isLabNetns, parseHostName } from '../../src/lab/names.js';
import { labInventory, labInventoryYaml } from '../../src/lab/inventory.js';
import { rootfsKey } from '../../src/lab/rootfs.js';
import type { HostState, LabState } from '../../src/lab/state.js';
import { baseOf, pickLabName, pidTag, squeeze } from '../helpers/lab-name.js';

const fixture = (name: string): string => new URL(`../../../test/lab/fixtures/${name}`, import.meta.url).pathname;
const read = (name: string): string => readFileSync(fixture(name), 'utf8');

test('deb822 sources of this machine give the Debian bookworm mirrors, main only', (t) => {
  const sources = parseDeb822Sources(read('etc-apt/sources.list.d/debian.sources'));
  t.deepEqual(mirrorLines(sources, 'bookworm'), [
    'deb http://deb.debian.org/debian bookworm main',
    'deb http://deb.debian.org/debian bookworm-updates main',
    'deb http://deb.debian.org/debian-security bookworm-security main',
  ]);
});

test('third-party repositories are never used for the rootfs', (t) => {
  const google = parseOneLineSources(read('etc-apt/sources.list.d/google-cloud-sdk.list.disabled-by-farm'));
  t.is(google[0]?.suite, 'cloud-sdk-bookworm');
  const node = parseDeb822Sources(read('etc-apt/sources.list.d/nodesource.sources.disabled-by-farm'));
  t.is(node[0]?.uri, 'https://deb.nodesource.com/node_20.x');
  t.deepEqual(mirrorLines([...google, ...node], 'bookworm'), []);
});

test('machineMirrorLines reads a sources tree and skips disabled files', async (t) => {
  const lines = await machineMirrorLines('bookworm', fixture('etc-apt'));
  t.is(lines.length, 3);
  t.true(lines.every((l) => l.includes('deb.debian.org')));
  t.deepEqual(await machineMirrorLines('bookworm', fixture('no-such-dir')), ['deb http://deb.debian.org/debian bookworm main']);
});

test('mount points under a lab dir are found in recorded mountinfo', (t) => {
  const points = parseMountPoints(read('mountinfo.txt'));
  t.deepEqual(points.filter((p) => p.startsWith('/var/lib/hostwire/labs/fx/')), [
    '/var/lib/hostwire/labs/fx/fx-1/merged',
    '/var/lib/hostwire/labs/fx/fx-2/merged',
  ]);
  t.deepEqual(parseMountPoints('36 35 0:3 / /a\\040b rw - tmpfs x rw\n'), ['/a b']);
});

test('lab namespaces are recognised by exact name, never another lab\'s', (t) => {
  const names = parseNetnsList(read('ip-netns-list.txt'));
  t.deepEqual(names.sort(), ['hw-fx', 'hw-fx-1', 'hw-fx-2']);
  t.true(names.every((n) => isLabNetns('fx', n)));
  t.false(isLabNetns('f', 'hw-fx'));
  t.false(isLabNetns('lab', 'hw-lab2'));
  t.false(isLabNetns('lab', 'hw-lab2-1'));
  t.deepEqual(parseNetnsList('hw-a (id: 0)\nhw-b\n'), ['hw-a', 'hw-b']);
});

test('lab and host names', (t) => {
  t.is(checkLabName('lab2'), 'lab2');
  for (const bad of ['', 'Lab', 'a-b', '1lab', 'abcdefghijklm']) t.throws(() => checkLabName(bad), { message: /lab name/ });
  t.deepEqual(parseHostName('lab-12'), { lab: 'lab', index: 12 });
  t.is(parseHostName('node1'), undefined);
});

test('subnets: stable per name, distinct when taken, hosts from .11', (t) => {
  const a = allocateSubnet('lab', []);
  t.deepEqual(allocateSubnet('lab', []), a);
  t.regex(a.cidr, /^10\.1\d\d\.\d+\.0\/24$/);
  const b = allocateSubnet('lab', [a.cidr]);
  t.not(b.cidr, a.cidr);
  t.is(hostIp(a, 1), `${a.prefix}.11`);
  t.is(a.gateway, `${a.prefix}.1`);
});

test('rootfs cache key follows the package list, not its order', (t) => {
  const m = ['deb http://deb.debian.org/debian bookworm main'];
  t.is(rootfsKey(['a', 'b'], m), rootfsKey(['b', 'a', 'a'], m));
  t.not(rootfsKey(['a', 'b'], m), rootfsKey(['a', 'b', 'c'], m));
  t.not(rootfsKey(['a'], m), rootfsKey(['a'], ['deb http://other/debian bookworm main']));
});

test('inventory has the ansible connection vars, the netns and the lab group', (t) => {
  const state = {
    name: 'x', netns: 'hw-x', keyFile: '/k', knownHostsFile: '/kh', capabilities: { ipip: false, vxlan: true },
    hosts: [{ name: 'x-1', ip: '10.1.2.11' }, { name: 'x-2', ip: '10.1.2.12' }],
  } as unknown as LabState;
  const inv = labInventory(state) as { all: { hosts: Record<string, Record<string, unknown>>; children: { lab: { hosts: object } } } };
  t.deepEqual(Object.keys(inv.all.children.lab.hosts), ['x-1', 'x-2']);
  const h = inv.all.hosts['x-2']!;
  t.is(h.ansible_host, '10.1.2.12');
  t.is(h.ansible_user, 'root');
  t.is(h.ansible_ssh_private_key_file, '/k');
  t.regex(String(h.ansible_ssh_common_args), /-o UserKnownHostsFile=\/kh/);
  t.is(h.hostwire_netns, 'hw-x');
  t.deepEqual(h.hostwire_lab_capabilities, { ipip: false, vxlan: true });
  t.deepEqual(parse(labInventoryYaml(state)), inv);
});

test('a lock left by a dead process (interrupted build) is taken over; a live one is waited for', async (t) => {
  const dir = mkdtempSync('/tmp/hw-lock-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const deadPid = spawnSync('true').pid!;
  writeFileSync(`${dir}/l`, String(deadPid));
  t.is(await withLock(`${dir}/l`, async () => 'ran'), 'ran');
  t.false(existsSync(`${dir}/l`));
  writeFileSync(`${dir}/l`, String(process.pid));
  await t.throwsAsync(withLock(`${dir}/l`, async () => 'never', 600), { message: /timed out waiting for lock/ });
});

test('an IPv6-only host\'s marker in its overlay: the address lab reboot waits at; none without it; anything else refused', async (t) => {
  const dir = mkdtempSync('/tmp/hw-lab-marker-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const host = { name: 'lab-1', dir } as HostState;
  t.is(await ipv6OnlyAddress(host), undefined, 'no marker: eth0 seeded with the lab\'s IPv4 address');
  mkdirSync(`${dir}/upper/var/lib/hostwire`, { recursive: true });
  writeFileSync(`${dir}/upper${IPV6_ONLY_MARKER}`, 'fd5c:8c::11\n');
  t.is(await ipv6OnlyAddress(host), 'fd5c:8c::11');
  writeFileSync(`${dir}/upper${IPV6_ONLY_MARKER}`, '10.1.2.3; reboot\n');
  const refused = await t.throwsAsync(() => ipv6OnlyAddress(host), { message: /lab-1: \/var\/lib\/hostwire\/lab-ipv6-only does not hold one IPv6 address/ });
  t.false(refused?.message.includes('reboot'), 'what the guest wrote is not echoed');
  // The guest could plant symlinks to make root read a file of the machine's: none is followed.
  writeFileSync(`${dir}/secret`, 'fd5c:8c::99\n');
  rmSync(`${dir}/upper${IPV6_ONLY_MARKER}`);
  symlinkSync(`${dir}/secret`, `${dir}/upper${IPV6_ONLY_MARKER}`);
  t.is(await ipv6OnlyAddress(host), undefined, 'the marker as a symlink is not followed');
  rmSync(`${dir}/upper/var/lib/hostwire`, { recursive: true });
  mkdirSync(`${dir}/elsewhere`);
  writeFileSync(`${dir}/elsewhere/lab-ipv6-only`, 'fd5c:8c::98\n');
  symlinkSync(`${dir}/elsewhere`, `${dir}/upper/var/lib/hostwire`);
  t.is(await ipv6OnlyAddress(host), undefined, 'a symlinked folder on the way is not followed');
});

test("a lab test's name: the base cut to fit, then the worker's pid in base 36 - per run, valid, readable", (t) => {
  const free = (): boolean => false;
  t.is(baseOf('file:///work/x/dist/test/roles-lab/uplink-rollback.test.js'), 'uplink-rollback');
  t.is(baseOf('h4ref'), 'h4ref');
  t.is(pidTag(35), '00z');
  t.is(pidTag(32768), 'pa8');
  t.is(pidTag(36 ** 3 + 5), '005', 'a pid above 36^3 wraps (live labs are checked)');
  const a = pickLabName('file:///w/dist/test/roles-lab/uplink-rollback.test.js', 31234, free);
  t.is(a, 'uplinrollo3m');
  // Another run of the same file (another worker pid) beside it: another lab.
  t.not(pickLabName('file:///w/dist/test/roles-lab/uplink-rollback.test.js', 31235, free), a);
  t.is(pickLabName('file:///w/dist/test/roles-lab/uplink-rollback.test.js', 31234, free), a, 'the same run: the same name');
  for (const [base, want] of [['uplink-fault-checks', 'uplfauche'], ['cluster-add-remove-node', 'cluadreno'], ['s8-apt', 's8apt'],
    ['h4ref', 'h4ref'], ['ovsv6vb28s', 'ovsv6vb2s'], ['ovsv6vb28d', 'ovsv6vb2d'], ['9lives', 't9lives'], ['vmdhcphotplg', 'vmdhcphog']] as const) {
    t.is(squeeze(base, 9), want, base);
    t.is(checkLabName(pickLabName(base, 4242, free)), `${want}${pidTag(4242)}`);
  }
  // A name some other live lab holds: the tag steps on to a free one.
  const held = new Set(['h4ref39u', 'h4ref39v']);
  t.is(pickLabName('h4ref', 4242, (n) => held.has(n)), 'h4ref39w');
  t.throws(() => pickLabName('h4ref', 4242, () => true), { message: /no free lab name for h4ref \(50 tried from h4ref39u\)/ });
});

test('every lab name a test file gives is its own within the file once cut to fit', (t) => {
  const root = new URL('../../../test/', import.meta.url).pathname;
  const files = spawnSync('grep', ['-rlE', 'testLabName|vmLabName', root], { encoding: 'utf8' }).stdout.split('\n').filter((f) => f.endsWith('.test.ts'));
  t.true(files.length > 60, `${files.length} lab test files`);
  for (const f of files) {
    const words = [...readFileSync(f, 'utf8').matchAll(/(?:testLabName|vmLabName)\('([a-z][a-z0-9]*)'\)/g)].map((m) => squeeze(m[1]!, 9));
    t.is(new Set(words).size, words.length, `${f}: ${words.join(' ')}`);
  }
});
