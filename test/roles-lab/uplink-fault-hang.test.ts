// A step of the move that hangs does not hold the host for good: every wait in the host's script is bounded,
// but not their sum, nor a command that blocks. The transaction's unit runs apply_timeout + confirm_timeout at
// most (systemd's RuntimeMaxSec): past it systemd stops the unit - the hung command with it - and the trap
// rolls back, naming the limit. Here ovs-vswitchd is frozen (SIGSTOP), so add-br waits on it.
import test from 'ava';
import { failure, snapshot, uplinkLab } from './uplink-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

test('a move that hangs is stopped at apply_timeout + confirm_timeout and rolled back completely', async (t) => {
  const l = await uplinkLab(t, testLabName(import.meta.url));
  const before = await snapshot(l);
  const pid = (await l.host.sh('pidof ovs-vswitchd')).trim();
  t.regex(pid, /^\d+$/, 'ovs-vswitchd runs');
  t.teardown(() => l.host.sh(`kill -CONT ${pid}`).catch(() => undefined));
  await l.host.sh(`kill -STOP ${pid}`);
  const at = Date.now();
  const r = await l.role({ configure_ovs_apply_timeout: 15, configure_ovs_confirm_timeout: 10 });
  t.log(`run: ${((Date.now() - at) / 1000).toFixed(1)} s; ${/rolled back after [^\n]*/.exec(failure(r))?.[0]}`);
  t.is(r.summary.exitCode, 2, failure(r));
  const m = /rolled back after ([\d.]+) s: stopped by its limit: the move ran (\d+) s, past apply_timeout \+ confirm_timeout \(25 s\)/.exec(failure(r));
  t.truthy(m, failure(r));
  t.true(Number(m?.[2]) >= 20 && Number(m?.[2]) < 60, `stopped ${m?.[2]} s after the start`);
  await l.host.sh(`kill -CONT ${pid}`);
  // vswitchd, thawed, catches up with the database (the bridge added, then deleted by the rollback).
  let now = await snapshot(l);
  for (let i = 0; i < 10 && now !== before; i++) { await new Promise((res) => setTimeout(res, 1000)); now = await snapshot(l); }
  t.is(now, before, 'the host exactly as before the run');
});
