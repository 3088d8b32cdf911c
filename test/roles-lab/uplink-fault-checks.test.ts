// The confirm checks catch what a ping of the on-link gateway missed: a jumbo MTU on a 1500-byte
// segment (do-not-fragment probes of the full size fail) and a bogus ARP entry for the gateway
// (injected on br-ex as soon as it carries the default route). Each rolls the host back to exactly
// its state before the run, and says which check failed.
import test from 'ava';
import { failure, onBridgeUp, snapshot, uplinkLab } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('mtu 9000 on a 1500-byte segment fails the path-MTU probe and rolls back', async (t) => {
  const l = await uplinkLab(t, testLabName('h4mtu'));
  const before = await snapshot(l);
  const r = await l.role({ configure_ovs_mtu: 9000 });
  t.is(r.summary.exitCode, 2, failure(r));
  t.regex(failure(r), new RegExp(`rolled back after [\\d.]+ s: path MTU: ${esc(l.gw)} answers small pings through br-ex but not 9000-byte packets \\(ping -M do -s 8972\\)`));
  t.is(await snapshot(l), before);
  // 1500 (the segment's) passes the same probe.
  const ok = await l.role({ configure_ovs_mtu: 1500 });
  t.is(ok.summary.exitCode, 0, failure(ok));
});

test('a bogus ARP entry for the gateway on br-ex fails the check and rolls back', async (t) => {
  const l = await uplinkLab(t, testLabName('h4arp'));
  const before = await snapshot(l);
  await onBridgeUp(l, `ip neigh replace ${l.gw} lladdr 02:00:5e:00:de:ad dev br-ex nud permanent`, 'br-ex', 'arp');
  const r = await l.role();
  t.is(r.summary.exitCode, 2, failure(r));
  // When the entry lands after the host's own check, the controller loses the host too (its path is the
  // gateway) and the host rolls itself back for want of a confirmation: the same safety net, seen in CI.
  t.regex(failure(r), new RegExp(`rolled back after [\\d.]+ s: (connectivity check failed: ${esc(l.gw)} does not answer through br-ex|no confirmation from hostwire within \\d+ s)`));
  t.is(await snapshot(l), before);
});
