// Pure parts of VM hosts: kinds, MAC, qemu command line, capability output (recorded in a lab VM), inventory.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { checkVmOptions, hostKinds } from '../../src/lab/vm/kinds.js';
import { vmMac } from '../../src/lab/vm/host.js';
import { kernelCmdline, qemuArgs } from '../../src/lab/vm/qemu.js';
import { capabilityScript, parseCapabilityLines } from '../../src/lab/vm/capabilities.js';
import { VM_PACKAGES, vmImageKey, vmImagePackages } from '../../src/lab/vm/image.js';
import { labInventory } from '../../src/lab/inventory.js';
import type { HostState, LabState, VmHostState } from '../../src/lab/state.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../test/lab/fixtures/${name}`, import.meta.url), 'utf8');

test('host kinds: the last N hosts are VMs, or one kind per host; bad input is named', (t) => {
  t.deepEqual(hostKinds(3, {}), ['nspawn', 'nspawn', 'nspawn']);
  t.deepEqual(hostKinds(3, { vms: 1 }), ['nspawn', 'nspawn', 'vm']);
  t.deepEqual(hostKinds(2, { vms: 2 }), ['vm', 'vm']);
  t.deepEqual(hostKinds(2, { vms: 2, kinds: ['vm', 'nspawn'] }), ['vm', 'nspawn']);
  t.throws(() => hostKinds(2, { vms: 3 }), { message: /--vms 3: expected a whole number from 0 to 2/ });
  t.throws(() => hostKinds(2, { kinds: ['vm'] }), { message: /kinds: expected 2 entries/ });
  t.throws(() => hostKinds(1, { kinds: ['kvm'] }), { message: /kinds\[0\]: expected one of nspawn, vm, got "kvm"/ });
});

test("VM MACs: qemu's 52:54:00 prefix + the IP's last three octets, unique per lab IP", (t) => {
  t.is(vmMac('10.118.233.12'), '52:54:00:76:e9:0c');
  t.not(vmMac('10.118.233.12'), vmMac('10.118.234.12'));
});

const vm: VmHostState = { image: '/c', kernel: '/c/vmlinuz', initrd: '/c/initrd.img', kernelRelease: '6.1.0-56-cloud-amd64',
  disk: '/l/x-2/disk.qcow2', seed: '/l/x-2/seed.img', mac: '52:54:00:01:02:0c', memoryMb: 1024, cpus: 2 };
const host = { name: 'x-2', index: 2, kind: 'vm', ip: '10.1.2.12', netns: 'hw-x', veth: 'tap2', dir: '/l/x-2', vm } as HostState;

test('qemu: TCG, tap on the lab bridge (never user networking), direct kernel boot, serial console to a file', (t) => {
  const args = qemuArgs(host, vm).join(' ');
  t.regex(args, /-accel tcg,thread=multi/);
  t.regex(args, /-netdev tap,id=net0,ifname=tap2,script=no,downscript=no,vnet_hdr=off/);
  t.regex(args, /mac=52:54:00:01:02:0c/);
  t.notRegex(args, /-netdev user|-nic user|hostfwd/);
  t.regex(args, /-kernel \/c\/vmlinuz -initrd \/c\/initrd\.img/);
  t.regex(args, /file=\/l\/x-2\/disk\.qcow2,format=qcow2.*file=\/l\/x-2\/seed\.img,format=raw,if=virtio,readonly=on/);
  t.regex(args, /path=\/l\/x-2\/console\.log/);
  t.regex(kernelCmdline(host), /root=\/dev\/vda .*net\.ifnames=0 systemd\.hostname=x-2/);
});

test('--vm-kernel-arg: extra words at the end of the kernel command line (a kernel without IPv6), none by default', (t) => {
  t.notRegex(kernelCmdline(host), /ipv6\.disable/);
  const noV6 = { ...host, vm: { ...vm, kernelArgs: ['ipv6.disable=1'] } };
  t.regex(kernelCmdline(noV6), /^root=\/dev\/vda .* panic=5 ipv6\.disable=1$/);
  const args = qemuArgs(noV6, noV6.vm);
  t.is(args[args.indexOf('-append') + 1], kernelCmdline(noV6), 'one -append word: qemu passes it to the kernel whole');
});

test('--vm-selinux: its own image (the default one keeps its packages and cache key) and SELinux on, permissive, at boot', (t) => {
  t.deepEqual(vmImagePackages(), VM_PACKAGES);
  t.deepEqual(vmImagePackages(false), ['linux-image-cloud-amd64', 'initramfs-tools', 'udev']);
  t.true(vmImagePackages(true).includes('selinux-policy-default') && vmImagePackages(true).includes('python3-semanage'));
  t.not(vmImageKey('r', vmImagePackages(true)), vmImageKey('r', vmImagePackages(false)));
  t.notRegex(kernelCmdline(host), /security=|enforcing=/, 'the default VM boots with the kernel\'s own LSM choice');
  t.regex(kernelCmdline({ ...host, vm: { ...vm, selinux: true } }), / security=selinux enforcing=0$/);
});

test('VM capabilities from output recorded in a lab VM', (t) => {
  const caps = parseCapabilityLines(fixture('vm-capabilities.txt'));
  t.true(caps.ipip && caps.gre && caps.sit && caps.vlan && caps.dummy && caps.openvswitch);
  t.false(caps.nm_ovs_plugin);
  t.deepEqual(Object.keys(caps).sort(), ['dummy', 'geneve', 'gre', 'ipip', 'macvlan', 'nm_ovs_plugin', 'openvswitch', 'sit', 'vlan', 'vxlan', 'wireguard']);
  t.deepEqual(parseCapabilityLines('garbage\nipip=2\n'), {});
  t.regex(capabilityScript(), /modprobe -n -q ip_gre; then echo gre=1/);
});

test('VM image key follows the rootfs and the kernel packages', (t) => {
  t.is(vmImageKey('r1', ['a', 'b']), vmImageKey('r1', ['b', 'a']));
  t.not(vmImageKey('r1', ['a']), vmImageKey('r2', ['a']));
  t.not(vmImageKey('r1', ['a']), vmImageKey('r1', ['a', 'c']));
  // The --nm-ovs variant has its own key, one per NM build; without it the key is as it always was.
  t.not(vmImageKey('r1', ['a'], '1.42.4-1+deb12u1-b1'), vmImageKey('r1', ['a']));
  t.not(vmImageKey('r1', ['a'], '1.42.4-1+deb12u1-b1'), vmImageKey('r1', ['a'], '1.42.4-1+deb12u1-b2'));
  t.is(vmImageKey('r1', ['a'], undefined), vmImageKey('r1', ['a']));
});

test('inventory: kind per host, a VM host carries its own capabilities, group lab_vms', (t) => {
  const state = {
    name: 'x', netns: 'hw-x', keyFile: '/k', knownHostsFile: '/kh', capabilities: { ipip: false },
    hosts: [{ name: 'x-1', ip: '10.1.2.11' }, { ...host, capabilities: { ipip: true } }],
  } as unknown as LabState;
  const inv = labInventory(state) as { all: { hosts: Record<string, Record<string, unknown>>; children: Record<string, { hosts: object }> } };
  t.is(inv.all.hosts['x-1']!.hostwire_lab_kind, 'nspawn');
  t.deepEqual(inv.all.hosts['x-1']!.hostwire_lab_capabilities, { ipip: false });
  t.is(inv.all.hosts['x-2']!.hostwire_lab_kind, 'vm');
  t.deepEqual(inv.all.hosts['x-2']!.hostwire_lab_capabilities, { ipip: true });
  t.deepEqual(Object.keys(inv.all.children.lab_vms!.hosts), ['x-2']);
  t.deepEqual(Object.keys(inv.all.children.lab!.hosts), ['x-1', 'x-2']);
});

test('VM memory and vCPUs are checked before anything is built', (t) => {
  t.notThrows(() => checkVmOptions({ memoryMb: 1024, cpus: 2 }));
  t.throws(() => checkVmOptions({ memoryMb: 100 }), { message: /--vm-memory 100: expected a whole number of MB from 512/ });
  t.throws(() => checkVmOptions({ cpus: 0 }), { message: /vm\.cpus 0/ });
  t.notThrows(() => checkVmOptions({ kernelArgs: ['ipv6.disable=1', 'quiet', 'loglevel=7'] }));
  t.throws(() => checkVmOptions({ kernelArgs: ['a b'] }), { message: /--vm-kernel-arg "a b": expected one kernel command-line word/ });
  t.throws(() => checkVmOptions({ kernelArgs: ['x="y"'] }), { message: /expected one kernel command-line word/ });
  t.throws(() => checkVmOptions({ kernelArgs: ['root=/dev/vdb'] }), { message: /--vm-kernel-arg root=\/dev\/vdb: the lab sets root itself/ });
});
