// The rollback restores the saved state completely, not only the last step: the node's /24 landing
// on lo mid-move (what `add-br lo` once did: the subnet became local, the gateway "answered" from
// the host itself and the old rollback only deleted the bridge) is caught by the SSH-path check, and
// the rollback sweeps the stray address away - the host is exactly as before and reachable again.
import test from 'ava';
import { failure, onBridgeUp, snapshot, uplinkLab } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('the node address appearing on lo mid-move is caught and swept away by the rollback', async (t) => {
  const l = await uplinkLab(t, testLabName(import.meta.url));
  const client = (await l.host.sh('printf %s "${SSH_CONNECTION%% *}"')).trim();
  const before = await snapshot(l);
  await onBridgeUp(l, `ip addr add ${l.ip}/24 dev lo`, 'br-ex', 'lo');
  const r = await l.role({ configure_ovs_confirm_timeout: 20 });
  t.is(r.summary.exitCode, 2, failure(r));
  // Either the host's own SSH-path check catches it, or - when the stray route already cuts the
  // controller off before that check runs - the missing confirmation does: both are the host's rollback.
  t.regex(failure(r), new RegExp(`rolled back after [\\d.]+ s: ((at the confirmation: )?the SSH path: ip route get ${esc(client)} goes through 'lo', not br-ex|no confirmation from hostwire within 20 s)`));
  t.notRegex(failure(r), /NOT restored/);
  t.is(await snapshot(l), before, 'no address left on lo, eth0 holds the node address and the default route again');
  t.is((await l.host.sh('ip -o addr show dev lo scope global')).trim(), '');
});
