// VM tier (npm run test:vm): two VM hosts with four NICs each - eth1 on the lab bridge, eth2/eth3 wired
// point-to-point to the other VM - prove what bond scenarios need from the lab: NICs in the planned order
// and MACs, the bridge, the wires carrying LACP (an 802.3ad bond across them finds its partner), a cable
// cut the guest sees as carrier loss, and a lab owned by a process that is then SIGKILLed leaving nothing.
import test from 'ava';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { labSetLink } from '../../src/lab/lab-link.js';
import type { HostState } from '../../src/lab/state.js';
import { assertLabGoneWithin, killChild, ownedLabInChild } from '../helpers/lab-gone.js';
import { vmSh } from './vm-ssh.js';
import { vmLabName } from './lab-name.js';

const LAB = vmLabName(import.meta.url);

test.serial('VM hosts with several NICs: lab bridge, LACP over wires, cable cuts, no lab left after its owner is killed', async (t) => {
  t.timeout(25 * 60_000); // below the VM tier's 30 min; the owner's watchdog removes the lab whatever happens
  const started = Date.now();
  const { child, state } = await ownedLabInChild({ name: LAB, hosts: 2, vms: 2, vm: { nics: 4 },
    wires: [[{ host: 1, nic: 2 }, { host: 2, nic: 2 }], [{ host: 1, nic: 3 }, { host: 2, nic: 3 }]], vmTimeoutMs: 15 * 60_000 }, 18 * 60_000);
  t.teardown(() => killChild(child));
  t.log(`2 VMs up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const [a, b] = state.hosts as [HostState, HostState];
  const sh = (h: HostState, cmd: string): Promise<string> => vmSh(state, h, cmd);

  // NICs in PCI order with the planned MACs.
  for (const h of [a, b]) {
    const macs = (await sh(h, 'for i in 0 1 2 3; do cat /sys/class/net/eth$i/address; done')).trim().split('\n');
    t.deepEqual(macs, [h.vm!.mac, ...h.vm!.nics!.map((n) => n.mac)], h.name);
  }
  // eth1 of both on the lab bridge (their taps are br0's ports), eth2/eth3 are wires (no tap).
  const ports = (await execa('ip', ['-n', state.netns, '-o', 'link', 'show', 'master', state.bridge])).stdout;
  for (const tap of ['tap1', 'tap2', 'tap1n1', 'tap2n1']) t.regex(ports, new RegExp(`: ${tap}[:@]`));
  t.notRegex(ports, /tap\dn[23]/);
  await sh(a, 'ip addr add 192.168.77.1/24 dev eth1 && ip link set eth1 up');
  await sh(b, 'ip addr add 192.168.77.2/24 dev eth1 && ip link set eth1 up');
  t.regex(await sh(a, 'ping -c2 -W5 -I eth1 192.168.77.2'), / 0% packet loss/);

  // Each wire carries frames as they are (addresses on both ends, a ping), then LACP: each side's 802.3ad
  // bond over both wires sees the other as its partner.
  for (const nic of ['eth2', 'eth3']) {
    await sh(a, `ip addr add 192.168.78.1/30 dev ${nic} && ip link set ${nic} up`);
    await sh(b, `ip addr add 192.168.78.2/30 dev ${nic} && ip link set ${nic} up`);
    t.regex(await sh(a, `ping -c2 -W5 -I ${nic} 192.168.78.2`), / 0% packet loss/, `wire ${nic}`);
    for (const h of [a, b]) await sh(h, `ip addr flush dev ${nic}`);
  }
  t.is((await sh(a, 'cat /sys/class/net/eth2/speed /sys/class/net/eth2/duplex')).trim(), '1000\nfull');
  const bond = (ip: string): string => ['ip link add bond0 type bond mode 802.3ad lacp_rate fast miimon 100',
    'ip link set eth2 down', 'ip link set eth3 down', 'ip link set eth2 master bond0', 'ip link set eth3 master bond0',
    `ip link set bond0 up && ip addr add ${ip}/24 dev bond0`].join(' && ');
  await sh(a, bond('192.168.79.1'));
  await sh(b, bond('192.168.79.2'));
  const bMac = (await sh(b, 'cat /sys/class/net/bond0/address')).trim();
  let partner = '';
  for (let i = 0; i < 30 && !partner.includes(bMac); i++) {
    partner = await sh(a, 'grep -i "Partner Mac Address" /proc/net/bonding/bond0 || true');
    if (!partner.includes(bMac)) await new Promise((r) => setTimeout(r, 2000));
  }
  t.true(partner.includes(bMac), `${a.name}'s bond has no LACP partner:\n${await sh(a, 'cat /proc/net/bonding/bond0')}`);
  t.regex(await sh(a, 'ping -c2 -W5 192.168.79.2'), / 0% packet loss/);

  // A cable cut is carrier loss in the guest; the aggregate keeps the other wire.
  await labSetLink(a.name, 'eth2', 'down', { name: LAB });
  t.is((await sh(a, 'sleep 1; cat /sys/class/net/eth2/carrier')).trim(), '0');
  t.regex(await sh(a, 'ping -c2 -W5 192.168.79.2'), / 0% packet loss/, 'the bond carries on over eth3');
  await labSetLink(a.name, 'eth2', 'up', { name: LAB });
  t.is((await sh(a, 'sleep 1; cat /sys/class/net/eth2/carrier')).trim(), '1');
  await t.throwsAsync(labSetLink(a.name, 'eth9', 'down', { name: LAB }), { message: /has no NIC "eth9" \(it has eth0, eth1, eth2, eth3\)/ });

  // The owner dies without any teardown: VMs, taps, namespace, cgroups and the lab dir all go.
  const qemus = state.hosts.map((h) => h.initPid!);
  await killChild(child);
  const seconds = await assertLabGoneWithin(t, LAB, [...qemus, state.watchdogPid!], 120_000);
  t.log(`lab gone ${seconds.toFixed(1)} s after its owner was killed`);
  for (const tap of ['tap1n1', 'tap2n1']) t.false(existsSync(`/sys/class/net/${tap}`), `${tap} in the machine's namespace`);
});
