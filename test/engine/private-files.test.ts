// Files hostwire writes on the controller are 0600 and its folders 0700 whatever the umask, and
// an old world-readable file is replaced by a private one: the retry file (a real run), the HTML
// report, the subnet state under .hostwire/ and its lock, the lab's atomic writes.
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import { createReportCollector, writeReport } from '../../src/report/index.js';
import { FileStore } from '../../src/sdn/store/file-store.js';
import { withLock } from '../../src/sdn/store/lock.js';
import { flannelConfig, resolvePool } from '../../src/sdn/pool.js';
import { writeFileAtomic } from '../../src/lab/fs-util.js';

const modeOf = (p: string) => (statSync(p).mode & 0o777).toString(8);

// The tests of this file share the process umask: run them one by one.
test.serial('with umask 000 every controller-side file is 0600 and every folder 0700, old 0644 files included', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'h3-private-'));
  const old = process.umask(0);
  t.teardown(() => { process.umask(old); rmSync(dir, { recursive: true, force: true }); });
  // The retry file of a real run with a failing host (an old 0666 one is there already).
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(playbook, '- hosts: all\n  gather_facts: false\n  tasks:\n    - command: "false"\n');
  writeFileSync(path.join(dir, 'inv.ini'), `h3priv${process.pid} ansible_connection=local\n`);
  writeFileSync(path.join(dir, 'site.retry'), 'stale\n', { mode: 0o666 });
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inv.ini')] });
  rmSync(`/run/hostwire/local-h3priv${process.pid}.lock`, { force: true });
  t.is(summary.exitCode, 2);
  t.is(modeOf(path.join(dir, 'site.retry')), '600');
  // The HTML report.
  const report = path.join(dir, 'run.html');
  writeFileSync(report, 'old', { mode: 0o644 });
  writeReport(report, createReportCollector().data());
  t.is(modeOf(report), '600');
  // The subnet state file under a new .hostwire/ folder, and its lock while held.
  const state = path.join(dir, 'cluster', '.hostwire', 'subnets.json');
  const store = new FileStore(state);
  const pool = resolvePool({ network: '10.20.0.0/16', subnetLen: 24 });
  await store.allocate({ pool, config: flannelConfig(pool, 'host-gw'), backendType: 'host-gw', node: 'n1' });
  t.is(modeOf(path.dirname(state)), '700');
  t.is(modeOf(state), '600');
  await withLock(path.join(dir, 'x.lock'), async () => { t.is(modeOf(path.join(dir, 'x.lock')), '600'); });
  // The lab's atomic write (state.json) with the mode asked, even over a leftover temp file.
  const labFile = path.join(dir, 'lab', 'state.json');
  mkdirSync(path.dirname(labFile));
  writeFileSync(`${labFile}.tmp-${process.pid}`, 'leftover', { mode: 0o666 });
  await writeFileAtomic(labFile, '{}\n', 0o600);
  t.is(modeOf(labFile), '600');
  t.false(existsSync(`${labFile}.tmp-${process.pid}`));
});
