// Pure parts of VM hosts' extra NICs: wires, checks with named errors, MACs, taps, qemu arguments.
import test from 'ava';
import { checkNics, extraTap, nicArgs, nicMac, parseWire, planExtraNics } from '../../src/lab/vm/nics.js';
import { qemuArgs } from '../../src/lab/vm/qemu.js';
import type { HostState, VmHostState } from '../../src/lab/state.js';

const name = (i: number): string => `x-${i}`;

test('wires: HOST:NIC=HOST:NIC, anything else named', (t) => {
  t.deepEqual(parseWire('1:2=2:2'), [{ host: 1, nic: 2 }, { host: 2, nic: 2 }]);
  t.throws(() => parseWire('1:2-2:2'), { message: /--wire 1:2-2:2: expected HOST:NIC=HOST:NIC/ });
  t.throws(() => parseWire('a:1=2:1'), { message: /expected HOST:NIC=HOST:NIC/ });
});

test('NIC counts and wires are checked before anything is built', (t) => {
  const kinds = ['nspawn', 'vm', 'vm'];
  t.notThrows(() => checkNics(3, [[{ host: 2, nic: 2 }, { host: 3, nic: 2 }]], kinds));
  t.throws(() => checkNics(0, [], kinds), { message: /--vm-nics 0: expected a whole number from 1 to 8/ });
  t.throws(() => checkNics(9, [], kinds), { message: /from 1 to 8/ });
  t.throws(() => checkNics(3, [[{ host: 1, nic: 1 }, { host: 2, nic: 1 }]], kinds), { message: /wires\[0\] 1:1=2:1: host 1 is not a VM host \(VM hosts: 2, 3\)/ });
  t.throws(() => checkNics(3, [[{ host: 2, nic: 1 }, { host: 2, nic: 2 }]], kinds), { message: /both ends on host 2/ });
  t.throws(() => checkNics(3, [[{ host: 2, nic: 0 }, { host: 3, nic: 1 }]], kinds), { message: /NIC 0 is not an extra NIC \(eth1..eth2\); eth0 always stays on the lab bridge/ });
  t.throws(() => checkNics(3, [[{ host: 2, nic: 3 }, { host: 3, nic: 1 }]], kinds), { message: /NIC 3 is not an extra NIC/ });
  t.throws(() => checkNics(3, [[{ host: 2, nic: 1 }, { host: 3, nic: 1 }], [{ host: 3, nic: 1 }, { host: 2, nic: 2 }]], kinds), { message: /wires\[1\] .*host 3's eth1 is already wired/ });
});

test('extra NICs: taps on the lab bridge unless wired; MACs and UDP ports unique; both ends agree', (t) => {
  const wires: [{ host: number; nic: number }, { host: number; nic: number }][] = [[{ host: 2, nic: 2 }, { host: 3, nic: 2 }]];
  const a = planExtraNics(2, 3, '52:54:00:01:02:0c', wires, name);
  const b = planExtraNics(3, 3, '52:54:00:01:02:0d', wires, name);
  t.deepEqual(a, [
    { name: 'eth1', id: 'net1', mac: '52:54:01:01:02:0c', tap: 'tap2n1' },
    { name: 'eth2', id: 'net2', mac: '52:54:02:01:02:0c', wire: { localPort: 40022, remotePort: 40032, peer: 'x-3:eth2' } },
  ]);
  t.deepEqual(b[1]!.wire, { localPort: 40032, remotePort: 40022, peer: 'x-2:eth2' });
  t.deepEqual(planExtraNics(2, 1, '52:54:00:01:02:0c', [], name), []);
  t.is(nicMac('52:54:00:76:e9:0c', 7), '52:54:07:76:e9:0c');
  t.is(extraTap(50, 7), 'tap50n7');
  t.true(extraTap(50, 7).length <= 15);
  t.deepEqual(nicArgs(a), [
    '-netdev', 'tap,id=net1,ifname=tap2n1,script=no,downscript=no,vnet_hdr=off', '-device', 'virtio-net-pci,netdev=net1,mac=52:54:01:01:02:0c,speed=1000,duplex=full,romfile=',
    '-netdev', 'socket,id=net2,udp=127.0.0.1:40032,localaddr=127.0.0.1:40022', '-device', 'virtio-net-pci,netdev=net2,mac=52:54:02:01:02:0c,speed=1000,duplex=full,romfile=',
  ]);
});

test('qemu: extra NICs follow eth0 in PCI order, a QMP socket in the host dir (cable cuts)', (t) => {
  const vm: VmHostState = { image: '/c', kernel: '/c/vmlinuz', initrd: '/c/initrd.img', kernelRelease: 'k', disk: '/l/x-2/disk.qcow2', seed: '/l/x-2/seed.img',
    mac: '52:54:00:01:02:0c', memoryMb: 1024, cpus: 2, nics: planExtraNics(2, 2, '52:54:00:01:02:0c', [], name) };
  const host = { name: 'x-2', index: 2, kind: 'vm', ip: '10.1.2.12', netns: 'hw-x', veth: 'tap2', dir: '/l/x-2', vm } as HostState;
  const args = qemuArgs(host, vm).join(' ');
  t.regex(args, /netdev=net0,mac=52:54:00:01:02:0c,romfile= -netdev tap,id=net1,ifname=tap2n1,.* -device virtio-net-pci,netdev=net1,mac=52:54:01:01:02:0c/);
  t.regex(args, /-qmp unix:\/l\/x-2\/qmp\.sock,server=on,wait=off/);
  t.notRegex(args, /-netdev user|hostfwd/);
});
