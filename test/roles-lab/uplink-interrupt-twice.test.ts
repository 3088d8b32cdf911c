// Two Ctrl-C while an uplink move waits in its confirm window: hostwire quits at once (exit 99) but
// says that the host will roll itself back, when, and how to check - and the host then does so,
// at about the time announced. Real CLI process, real lab host, real transient unit.
import test from 'ava';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { uplinkLab } from './uplink-helpers.js';
import { repoRoot } from './sdn-agent-helpers.js';
import { testLabName } from '../helpers/lab-name.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WINDOW = 20;

test('a second Ctrl-C during a pending uplink move names the rollback time and how to check it', async (t) => {
  const l = await uplinkLab(t, testLabName(import.meta.url));
  const vars = path.join(l.dir, 'vars.json');
  // Confirmation withheld (a rollback drill): the window stays open for the whole test.
  writeFileSync(vars, JSON.stringify({ configure_ovs_mode: 'uplink', configure_ovs_datapath_type: 'netdev', configure_ovs_confirm_timeout: WINDOW, configure_ovs_confirm: false }));
  const child = execa('node', [path.join(repoRoot, 'dist/src/cli/main.js'), 'run', l.playbook, '-i', l.inventory, '-e', `@${vars}`, '--yes', '--no-live', '--roles-path', path.join(repoRoot, 'roles')],
    { cwd: l.dir, reject: false, stdin: 'ignore' });
  t.teardown(() => { try { process.kill(child.pid!, 'SIGKILL'); } catch { /* gone */ } });
  const deadline = Date.now() + 90_000;
  let id = '';
  while (!id) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      const r = await child;
      throw new Error(`the run never reached the confirm window (exit ${r.exitCode ?? r.signal}): ${r.stdout}\n${r.stderr}`);
    }
    id = (await l.host.sh('for f in /run/hostwire/waiting-*; do [ -e "$f" ] && echo "${f##*/waiting-}"; done; true')).trim();
    if (!id) await sleep(200);
  }
  child.kill('SIGINT');
  await sleep(500);
  child.kill('SIGINT');
  const r = await child;
  t.is(r.exitCode, 99, r.stderr);
  const unit = `hostwire-configure-ovs-${id}`;
  const said = new RegExp(`${l.host.state.hosts[0]!.name}: the uplink move ${unit} is still pending: unless it was confirmed, the host rolls itself back at about (\\d\\d):(\\d\\d):(\\d\\d) UTC\\.\\n  check it on \\S+ with: systemctl status ${unit}; cat /run/hostwire/result-${id}; journalctl -u ${unit}`);
  const m = said.exec(r.stderr);
  t.truthy(m, r.stderr);
  t.regex(r.stderr, /\[interrupted again\] quitting now/);
  // The host does what was announced, at about the time announced.
  let result = '';
  const until = Date.now() + (WINDOW + 60) * 1000;
  while (!/^status=/m.test(result) && Date.now() < until) {
    await sleep(1000);
    result = await l.host.sh(`cat /run/hostwire/result-${id} 2>/dev/null; true`).catch(() => '');
  }
  const seenAt = new Date();
  t.regex(result, /^status=rolled-back$/m);
  if (m) {
    // The host's result file counts seconds on its own clock: compare with when we saw it appear.
    const announced = new Date(seenAt);
    announced.setUTCHours(Number(m[1]), Number(m[2]), Number(m[3]));
    const off = Math.abs(announced.getTime() - seenAt.getTime()) / 1000;
    t.true(off < 30, `announced ${m[1]}:${m[2]}:${m[3]}, the rollback was seen at ${seenAt.toISOString()}`);
    t.log(`announced ${m[1]}:${m[2]}:${m[3]} UTC; the host's rollback result appeared at ${seenAt.toISOString().slice(11, 19)} (${off.toFixed(0)} s apart)`);
  }
});
