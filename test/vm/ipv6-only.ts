// Makes a VM host IPv6-only as its operator would: an NM profile on eth0 (IPv4 disabled, a static IPv6 address
// and default route via the lab's namespace) and the lab's IPv6-only marker (src/lab/network.ts
// IPV6_ONLY_MARKER: after a power cycle the seed unit leaves eth0 without the lab's IPv4 and `lab reboot` waits
// at the IPv6 address). Shared by the VM scenarios that start from such a host.
import { run, sleep } from '../../src/lab/run.js';
import { shellJoin } from '../../src/transports/quote.js';
import { atAddress, type VmUplinkLab } from './bond-lab.js';

/**
 * Gives `lab`'s VM eth0 the profile `lab6` with `host6`/64 via `gw6` (added to the lab bridge) and waits until
 * the host answers SSH there. Returns the lab reached at `host6` and what eth0 held at the last look (its NM
 * connection and global IPv6 addresses past DAD) - the caller asserts it.
 */
export async function makeIpv6Only(lab: VmUplinkLab, o: { host6: string; gw6: string; unit: string }): Promise<{ at6: VmUplinkLab; held: string }> {
  await run('ip', ['-n', lab.state.netns, '-6', 'addr', 'add', `${o.gw6}/64`, 'dev', lab.state.bridge, 'nodad']);
  // Detached: the session's own IPv4 path goes with the profile's activation.
  const steps = ['mkdir -p /var/lib/hostwire', `echo ${o.host6} >/var/lib/hostwire/lab-ipv6-only`,
    shellJoin(['nmcli', 'connection', 'add', 'type', 'ethernet', 'con-name', 'lab6', 'ifname', 'eth0', 'ipv4.method', 'disabled',
      'ipv6.method', 'manual', 'ipv6.addresses', `${o.host6}/64`, 'ipv6.gateway', o.gw6]),
    'nmcli connection up lab6'].join(' && ');
  await lab.sh(shellJoin(['systemd-run', '--quiet', '--collect', `--unit=${o.unit}`, 'sh', '-c', `sleep 1; ${steps}`]));
  const at6 = atAddress(lab, o.host6, o.gw6);
  let held = '';
  for (let i = 0; i < 100 && !/lab6[\s\S]*inet6 /.test(held); i++) {
    await sleep(3000);
    held = await at6.sh('nmcli -g GENERAL.CONNECTION device show eth0; ip -o -6 addr show dev eth0 scope global -tentative', 60_000).catch(() => '');
  }
  return { at6, held };
}
