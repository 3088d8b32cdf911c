// Records the real batch output used by the facts unit tests (run by hand, as root:
// `node dist/test/facts/record-fixtures.js`). Three variants, each a raw batch stdout:
//  - debian-host: this machine (Debian 12, PID 1 not systemd; ovs-vsctl, nmcli, firewall-cmd missing -> rc 127)
//  - netns-no-ipv6: the same probes inside a fresh network namespace with IPv6 disabled (lo only, no routes)
//  - tools-installed: the OVS and NetworkManager probes against Debian's openvswitch-switch/network-manager
//    packages unpacked with `dpkg -x` into HW_DEBS_ROOT (NetworkManager not running there):
//    `apt-get download openvswitch-switch openvswitch-common libxdp1 network-manager libnm0` then
//    `for d in *.deb; do dpkg -x $d root; done`.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { buildBatch } from '../../src/probe/batch.js';
import { factsScript } from '../../src/facts/gather.js';
import { networkManagerFact } from '../../src/facts/network-manager.js';
import { ovsFact } from '../../src/facts/ovs.js';

const dir = new URL('../../../test/facts/fixtures/', import.meta.url);
const sh = (script: string, env?: NodeJS.ProcessEnv) => execFileSync('/bin/sh', ['-c', script], { encoding: 'utf8', env });

writeFileSync(new URL('debian-host.batch.txt', dir), sh(factsScript()));

const ns = `hwrec-${process.pid}`;
execFileSync('ip', ['netns', 'add', ns]);
try {
  execFileSync('ip', ['netns', 'exec', ns, 'sysctl', '-qw', 'net.ipv6.conf.all.disable_ipv6=1', 'net.ipv6.conf.default.disable_ipv6=1', 'net.ipv6.conf.lo.disable_ipv6=1']);
  execFileSync('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
  writeFileSync(new URL('netns-no-ipv6.batch.txt', dir), execFileSync('ip', ['netns', 'exec', ns, '/bin/sh', '-c', factsScript()], { encoding: 'utf8' }));
} finally {
  execFileSync('ip', ['netns', 'del', ns]);
}

const root = process.env.HW_DEBS_ROOT ?? '/tmp/hw-debs/root';
const env = { ...process.env, PATH: `${root}/usr/bin:${process.env.PATH}`, LD_LIBRARY_PATH: `${root}/usr/lib/x86_64-linux-gnu` };
writeFileSync(new URL('tools-installed.batch.txt', dir), sh(buildBatch([
  { id: ovsFact.id, command: ovsFact.command },
  { id: networkManagerFact.id, command: networkManagerFact.command.replaceAll('/usr/lib', `${root}/usr/lib`) },
]), env));
