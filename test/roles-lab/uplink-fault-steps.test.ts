// A failing step of the host-side transaction fails the transaction: add-br refused by OVS (an
// ovs-vsctl wrapper injected on the host) and a gateway the kernel refuses (off the subnet) each roll
// the host back to exactly its state before the run - addresses, routes, links, OVS, and no script,
// unit or hint left - and the message names the first failing command and its stderr.
import test from 'ava';
import { failure, snapshot, uplinkLab } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('add-br failing and a refused gateway roll back completely and name the failing command', async (t) => {
  const l = await uplinkLab(t, testLabName(import.meta.url));
  const before = await snapshot(l);

  // OVS refuses the bridge: the wrapper comes first in the script's PATH and fails add-br only.
  await l.host.sh(`mkdir -p /usr/local/sbin && printf '%s\\n' '#!/bin/sh' 'case " $* " in *" add-br "*) echo "ovs-vsctl: injected: cannot create bridge" >&2; exit 1;; esac' 'exec /usr/bin/ovs-vsctl "$@"' >/usr/local/sbin/ovs-vsctl && chmod 0755 /usr/local/sbin/ovs-vsctl`);
  const addBr = await l.role();
  await l.host.sh('rm -f /usr/local/sbin/ovs-vsctl');
  t.is(addBr.summary.exitCode, 2, failure(addBr));
  t.regex(failure(addBr), /rolled back after [\d.]+ s: applying br-ex failed: ovs-vsctl --timeout=\d+ --may-exist add-br br-ex .*\(exit 1\): ovs-vsctl: injected: cannot create bridge/);
  t.is(await snapshot(l), before, 'add-br failure: the host is exactly as before (no script, unit or hint left either)');

  // The kernel refuses a gateway outside the subnet: the route step fails with iproute2's own words.
  const gw = await l.role({ configure_ovs_gateway: '192.0.2.1' });
  t.is(gw.summary.exitCode, 2, failure(gw));
  t.regex(failure(gw), new RegExp(`applying br-ex failed: ip route replace default via 192\\.0\\.2\\.1 metric 48 dev br-ex \\(exit 2\\): Error: Nexthop has invalid gateway`));
  t.is(await snapshot(l), before, 'refused gateway: the host is exactly as before');

  // And the host still moves when nothing is wrong.
  const ok = await l.role();
  t.is(ok.summary.exitCode, 0, failure(ok));
  t.regex(await l.host.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${esc(l.ip)}/24`));
});
