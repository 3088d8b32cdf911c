// A transaction left pending by a run whose controller was SIGKILLed in the confirm window is
// visible state to the next run: with the host in the wanted state the next run confirms it (and
// the host does not roll back after the window), otherwise it waits for the host's verdict and
// then moves as asked. Both say which in their change summary.
import test from 'ava';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { failure, snapshot, uplinkLab, type UplinkLab } from './uplink-helpers.js';
import { repoRoot } from './sdn-agent-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WINDOW = 20;

/**
 * Starts the role from the CLI in its own process group without confirming (so its confirm window
 * stays open), SIGKILLs the whole group once the host waits for the confirmation, and returns the
 * pending transaction's id.
 */
async function killInConfirmWindow(t: import('ava').ExecutionContext, l: UplinkLab): Promise<string> {
  const vars = path.join(l.dir, 'first.json');
  writeFileSync(vars, JSON.stringify({ configure_ovs_mode: 'uplink', configure_ovs_datapath_type: 'netdev', configure_ovs_confirm_timeout: WINDOW, configure_ovs_confirm: false }));
  const child = execa('node', [path.join(repoRoot, 'dist/src/cli/main.js'), 'run', l.playbook, '-i', l.inventory, '-e', `@${vars}`, '--yes', '--no-live', '--roles-path', path.join(repoRoot, 'roles')],
    { cwd: l.dir, detached: true, reject: false, stdin: 'ignore' });
  const killGroup = () => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } };
  t.teardown(killGroup);
  const deadline = Date.now() + 90_000;
  let id = '';
  while (!id) {
    if (Date.now() > deadline || child.exitCode !== null) {
      killGroup();
      const r = await child;
      throw new Error(`the first run never reached the confirm window (exit ${r.exitCode ?? r.signal}): ${r.stdout}\n${r.stderr}`);
    }
    id = (await l.host.sh('for f in /run/hostwire/waiting-*; do [ -e "$f" ] && echo "${f##*/waiting-}"; done; true')).trim();
    if (!id) await sleep(200);
  }
  killGroup();
  const r = await child;
  t.is(r.signal, 'SIGKILL', 'the controller died in the confirm window');
  t.regex(await l.host.sh(`systemctl is-active hostwire-configure-ovs-${id}; true`), /^active/m, 'its transaction is still pending on the host');
  return id;
}

test('the next run confirms a pending transaction whose state is the wanted one; the host keeps the move', async (t) => {
  const l = await uplinkLab(t, testLabName('h4kil'));
  const id = await killInConfirmWindow(t, l);
  const second = await l.role({ configure_ovs_confirm_timeout: WINDOW });
  t.is(second.summary.exitCode, 0, failure(second));
  t.true(second.changed.length === 1, second.changed.join('\n'));
  const confirmed = second.events.flatMap((e) => (e.type === 'host_result' ? [String(e.result.msg ?? '')] : [])).join('\n');
  t.regex(confirmed, new RegExp(`confirm the pending transaction hostwire-configure-ovs-${id} \\(an earlier run started it and never confirmed`));
  t.regex(await l.host.sh(`cat /run/hostwire/result-${id}`), /^status=ok$/m);
  const moved = await snapshot(l);
  // Past the earlier run's window: no rollback happened behind our back.
  await sleep((WINDOW + 5) * 1000);
  t.regex(await l.host.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${esc(l.ip)}/24`));
  t.regex(await l.host.sh('ip route show default'), /dev br-ex metric 48/);
  t.is(await snapshot(l), moved);
  const third = await l.role({ configure_ovs_confirm_timeout: WINDOW });
  t.deepEqual(third.changed, []);
});

test('the next run waits for a pending transaction that is not the wanted state, then moves as asked', async (t) => {
  const l = await uplinkLab(t, testLabName('h4wai'));
  const before = await snapshot(l);
  const id = await killInConfirmWindow(t, l);
  const started = Date.now();
  const second = await l.role({ configure_ovs_confirm_timeout: WINDOW, configure_ovs_mtu: 1400 });
  t.is(second.summary.exitCode, 0, failure(second));
  const msgs = second.events.flatMap((e) => (e.type === 'host_result' ? [String(e.result.msg ?? '')] : [])).join('\n');
  t.regex(msgs, new RegExp(`wait for the pending transaction hostwire-configure-ovs-${id} \\(in its confirm window, not the wanted state\\) to end, then plan again`));
  t.regex(await l.host.sh(`cat /run/hostwire/result-${id}`), /^status=rolled-back$[\s\S]*^reason=no confirmation from hostwire within 20 s/m);
  t.log(`second run took ${(Date.now() - started) / 1000} s (the earlier window: ${WINDOW} s)`);
  t.regex(await l.host.sh('ip -o link show dev br-ex'), / mtu 1400 /);
  t.regex(await l.host.sh('ip -o -4 addr show dev br-ex'), new RegExp(`inet ${esc(l.ip)}/24`));
  t.not(await snapshot(l), before);
  t.deepEqual((await l.role({ configure_ovs_confirm_timeout: WINDOW, configure_ovs_mtu: 1400 })).changed, []);
});
