// configure_ovs (mode uplink) on a DHCP uplink, for real: the second lab host serves DHCP (dnsmasq, the
// first host's MAC reserved to its lab address), the first host's eth0 takes its lease through a
// NetworkManager profile, with a static route besides the lease's (10.99.0.0/16 via the gateway at metric 200).
// A withheld confirmation gives eth0 its lease and the route back through that profile; the move keeps the
// lease on br-ex (networkd's DHCP client with the NIC's MAC: same address, SSH on it) and puts the static route
// there too (the ovs backend applied no route of a DHCP uplink before); a second run and --check change nothing.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shellJoin } from '../../src/transports/quote.js';
import { leaseOnEth0, moveKeepsLease, rollbackKeepsLease } from '../helpers/lab-dhcp.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

test('a DHCP uplink keeps its lease and its static route through the rollback and the move', async (t) => {
  t.timeout(280_000, 'r6dhcp: the test\'s own deadline');
  const dir = mkdtempSync(path.join(tmpdir(), 'hw-r6dhcp-'));
  let lab: LabHost | undefined;
  t.teardown(async () => { await lab?.close(); rmSync(dir, { recursive: true, force: true }); });
  lab = await labHost(testLabName(import.meta.url), { hosts: 2 });
  const { state } = lab;
  const lease = await leaseOnEth0(state, dir);
  const { role, client, gw, onHost } = lease;
  await onHost(client, shellJoin(['sh', '-c', 'nmcli connection modify dhcp0 ipv4.routes "$1" && nmcli device reapply eth0', 'sh', `10.99.0.0/16 ${gw} 200`]));
  const route = (dev: string) => onHost(client, `ip route show 10.99.0.0/16 dev ${dev}; true`);
  let before = '';
  for (let i = 0; i < 20 && !before; i++) {
    before = (await route('eth0')).trim();
    if (!before) await new Promise((r) => setTimeout(r, 500));
  }
  t.regex(before, new RegExp(`^10\\.99\\.0\\.0/16 via ${gw.replaceAll('.', '\\.')} proto static metric 200`), 'the profile\'s static route on eth0');
  await rollbackKeepsLease(t, lease);
  t.is((await route('eth0')).trim(), before, 'the static route back on eth0 exactly');

  await moveKeepsLease(t, lease);
  t.regex(await route('br-ex'), new RegExp(`^10\\.99\\.0\\.0/16 via ${gw.replaceAll('.', '\\.')} metric 200`), 'the static route on br-ex with its gateway and metric');
  t.deepEqual((await role()).changed, [], 'second run');
  const checked = await role({}, true);
  t.deepEqual([checked.changed, checked.failed], [[], []], '--check');
});
