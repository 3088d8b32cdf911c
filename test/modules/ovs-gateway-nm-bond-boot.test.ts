// The nm backend's staged script for a bond uplink (the inputs of the recorded move on VM host nmbond23x-1,
// ovs-gateway-nm-bond.test.ts) run by dash with nmcli, ip, ovs-vsctl and sleep stubbed, NM's answers as a VM gave
// them: at the move the kernel's bond0 (NM shows it under a connection of its own) is deleted and NM makes it from
// ovs-if-phys0, its ports activated. At boot (issue 20) the oneshot adds our profiles again from /run and NM's
// autoconnect runs bond0 under ovs-if-phys0 and its ports at once: that bond is kept - not deleted, neither it nor
// a port activated again (a VLAN on a kernel bond's boot churned so: ports released and re-enslaved 3 times, a
// port's activation failed, the oneshot 200 s) - and the oneshot waits for NM's activations to end.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BridgeEnv, UplinkConfig } from '../../src/modules/ovs_gateway/env.js';
import { nmUuid, planNmProfiles } from '../../src/modules/ovs_gateway/nm-profiles.js';

const device = { kind: 'bond' as const, options: 'mode active-backup miimon 100 updelay 200 primary eth1'.split(' '), members: ['eth1', 'eth2'] };
const u: UplinkConfig = { iface: 'bond0', mac: '42:38:b8:8b:a2:fb', mtu: 1500, method: 'static', addrs: ['10.132.178.11/24'], routes: ['default via 10.132.178.1'], gateways: ['10.132.178.1'], device, nmUnmanaged: ['eth1', 'eth2'] };
const e: BridgeEnv = { bridge: 'br-ex', uplink: 'bond0', mac: u.mac, mtu: 1500, method: 'static', addrs: u.addrs, routes: ['default via 10.132.178.1 metric 48'], metric: 48, datapath: 'system', dropIngress: false, check: ['10.132.178.1'], backend: 'nm', device };
const OURS = ['ovs-if-phys0', 'ovs-slave-eth1', 'ovs-slave-eth2'];

// nmcli as NM answered: a device's profile UUID and a profile's state from files; `connection up` activates the
// profile, and (at boot) ovs-if-br-ex's lets NM's own activations of the bond and its ports end (ovs-if-phys0
// completes only once ovs-if-br-ex is up, as seen on the lab hosts).
const NMCLI = `#!/bin/sh
D=$STUB_DIR
echo "nmcli $*" >>"$D/log"
case "$1 $2 $3 $4" in
  "-g GENERAL.CON-UUID device show") cat "$D/uuid-$5" 2>/dev/null ;;
  "-g GENERAL.STATE connection show") cat "$D/state-$5" 2>/dev/null ;;
  "--wait 60 connection up")
    echo activated >"$D/state-$5"
    if [ "$5" = ovs-if-br-ex ] && [ -e "$D/boot" ]; then for c in ${OURS.join(' ')}; do echo activated >"$D/state-$c"; done; fi ;;
esac
exit 0
`;

interface Run { log: string[]; out: string; ups: string[] }

/**
 * `up` of the staged script; `boot`: NM runs bond0 under ovs-if-phys0 (activating) and its ports (`ports` state)
 * already, and (unless `stuck`) ovs-if-br-ex's activation lets those end.
 */
function runUp(boot: { ports: 'activating' | 'activated'; stuck?: boolean } | undefined): Run {
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-nmboot-'));
  try {
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    mkdirSync(path.join(dir, 'sys', 'bond0', 'bonding'), { recursive: true });
    mkdirSync(path.join(dir, 'proc', 'bond0'), { recursive: true });
    const sleep = execFileSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).trim();
    const stub = (name: string, text: string) => { writeFileSync(path.join(bin, name), text); chmodSync(path.join(bin, name), 0o755); };
    stub('nmcli', NMCLI);
    stub('ip', '#!/bin/sh\necho "ip $*" >>"$STUB_DIR/log"\n');
    stub('ovs-vsctl', '#!/bin/sh\nexit 0\n');
    // NM's activations end within a poll or two: the script's `sleep 1` shortened.
    stub('sleep', `#!/bin/sh\nexec ${sleep} 0.02\n`);
    if (boot) {
      if (!boot.stuck) writeFileSync(path.join(dir, 'boot'), '');
      writeFileSync(path.join(dir, 'uuid-bond0'), `${nmUuid('ovs-if-phys0')}\n`);
      writeFileSync(path.join(dir, 'state-ovs-if-phys0'), 'activating\n');
      for (const p of OURS.slice(1)) writeFileSync(path.join(dir, `state-${p}`), `${boot.ports}\n`);
    } else {
      // The kernel's bond: NM shows it under a connection it made for it (externally).
      writeFileSync(path.join(dir, 'uuid-bond0'), 'c0ffee00-0000-4000-8000-00000000b0d0\n');
    }
    const script = planNmProfiles(u, e, true).join('\n')
      .replaceAll('/run/hostwire', path.join(dir, 'run')).replaceAll('/sys/class/net/', `${dir}/sys/`).replaceAll('/proc/sys/net/ipv6/conf/', `${dir}/proc/`);
    writeFileSync(path.join(dir, 'br-ex.nm'), script);
    const out = execFileSync('dash', [path.join(dir, 'br-ex.nm'), 'up'], { env: { PATH: `${bin}:${process.env.PATH}`, STUB_DIR: dir }, encoding: 'utf8' });
    const log = readFileSync(path.join(dir, 'log'), 'utf8').trim().split('\n');
    return { log, out, ups: log.filter((l) => l.startsWith('nmcli --wait 60 connection up ')).map((l) => l.slice(30)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('at the move the kernel\'s bond is deleted and NM makes it from ovs-if-phys0, the bond and its ports activated', (t) => {
  const r = runUp(undefined);
  t.true(r.log.includes('ip link delete dev bond0'), r.log.join('\n'));
  t.deepEqual([...r.ups].sort(), ['ovs-if-br-ex', 'ovs-if-phys0', 'ovs-slave-eth1', 'ovs-slave-eth2'], r.log.join('\n'));
  t.notRegex(r.out, /already/);
});

test('at boot a bond NM runs under ovs-if-phys0 already is kept: not deleted, neither it nor its ports activated again', (t) => {
  for (const ports of ['activating', 'activated'] as const) {
    const r = runUp({ ports });
    t.regex(r.out, /^NetworkManager runs bond0 under ovs-if-phys0 already$/m);
    t.false(r.log.some((l) => l.startsWith('ip link delete')), `not deleted (ports ${ports}):\n${r.log.join('\n')}`);
    t.deepEqual(r.ups, ['ovs-if-br-ex'], `only ovs-if-br-ex (not autoconnected) is ours to activate (ports ${ports}):\n${r.log.join('\n')}`);
    t.true(r.log.includes('nmcli device set eth1 managed yes'), 'the ports handed to NM as at the move (a no-op on managed ones)');
  }
});

test('at boot a bond NM runs whose activations do not end is activated by the script after all, once the bounded waits are over', (t) => {
  const r = runUp({ ports: 'activating', stuck: true });
  t.false(r.log.some((l) => l.startsWith('ip link delete')), r.log.join('\n'));
  t.deepEqual([...r.ups].sort(), ['ovs-if-br-ex', 'ovs-if-phys0', 'ovs-slave-eth1', 'ovs-slave-eth2'], r.log.join('\n'));
  const polls = (c: string) => r.log.filter((l) => l === `nmcli -g GENERAL.STATE connection show ${c}`).length;
  t.true(polls('ovs-if-phys0') >= 90 && polls('ovs-slave-eth1') >= 60, `waited first: ovs-if-phys0 ${polls('ovs-if-phys0')} polls, ovs-slave-eth1 ${polls('ovs-slave-eth1')}`);
});
