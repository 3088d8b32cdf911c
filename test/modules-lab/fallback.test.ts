// The Ansible-module fallback on a real host over SSH: a library/ module of these tests, a module
// of a test collection (with the collection's module_utils) and ansible-core's own getent and
// known_hosts run through one Python worker per host. Converge changes, the re-run changes nothing
// and uploads nothing (the payload is cached on the host by its hash), --check and --diff are the
// modules' own, a module without check-mode support is skipped with Ansible's message, and what a
// module returns is data (a template in it is never rendered).
import test from 'ava';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { HostResult, RunEvent, RunSummary } from '../../src/engine/runner/events.js';
import { fallbackStats } from '../../src/fallback/worker.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const fixtures = path.join(root, 'test/fixtures/fallback');
const dir = mkdtempSync(path.join(tmpdir(), 'hw-f5fb-'));
process.env.ANSIBLE_COLLECTIONS_PATH = path.join(fixtures, 'collections');
cpSync(path.join(fixtures, 'library'), path.join(dir, 'library'), { recursive: true });
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEY = 'f5.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINb8pBsnLp8LWaa8CgxMSbthQdDk2vc/mCwO+YYAfc8m';

const CONVERGE = `
- hosts: all
  gather_facts: false
  tasks:
    - name: line
      hw_line: { path: /srv/f5/line, line: "hello {{ inventory_hostname }}" }
    - name: kv
      hwtest.demo.kv: { path: /srv/f5/kv, key: a, value: "1" }
    - name: known host
      ansible.builtin.known_hosts: { path: /srv/f5/known_hosts, name: f5.example, key: "${KEY}" }
    - name: getent
      ansible.builtin.getent: { database: passwd, key: root }
    - name: getent's facts are the host's
      assert: { that: "getent_passwd.root[4] == '/root'" }
    - name: environment
      hw_line: { path: /srv/f5/env, line: x }
      environment: { HW_ENV_PROBE: seen }
    - name: secret
      hw_line: { path: /srv/f5/secret, line: s3cret }
      no_log: true
    - name: warns
      hw_line: { path: /srv/f5/warn, line: warn-me }
`;

interface Run { summary: RunSummary; results: Map<string, HostResult> }

async function play(name: string, yaml: string, o: { check?: boolean; diff?: boolean } = {}): Promise<Run> {
  const playbook = path.join(dir, `${name}.yml`);
  writeFileSync(playbook, yaml);
  const results = new Map<string, HostResult>();
  const onEvent = (e: RunEvent) => { if (e.type === 'host_result') results.set(e.task.name, e.result); };
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], retryFile: false, onEvent, ...o });
  return { summary, results };
}

const statuses = (r: Run) => Object.fromEntries([...r.results].map(([k, v]) => [k, v.status]));
const changedCount = (r: Run) => Object.values(r.summary.stats).reduce((n, s) => n + s.changed, 0);

/** The worker ends with the run: no process of it is left on the host. */
async function noWorkerLeft(h: LabHost): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    const n = Number((await h.sh("ps -eo args | grep -c '[h]ostwire.s fallback worker' || true")).trim());
    if (n === 0) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

test.serial('fallback modules converge, re-run with changed=0 and no upload, honour --check/--diff, and end with the run', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  await host.sh('mkdir -p /srv/f5 && rm -rf ~/.cache/hostwire');
  const before = { ...fallbackStats };

  const first = await play('converge', CONVERGE);
  t.is(first.summary.exitCode, 0, JSON.stringify(statuses(first)));
  t.like(statuses(first), { line: 'changed', kv: 'changed', 'known host': 'changed', getent: 'ok', environment: 'changed', secret: 'changed', warns: 'changed' });
  t.is(await host.sh('cat /srv/f5/line /srv/f5/kv'), `hello ${host.state.hosts[0]!.name}\na=1\n`);
  t.regex(await host.sh('cat /srv/f5/known_hosts'), /^f5\.example ssh-ed25519 AAAAC3/);
  t.is(first.results.get('environment')?.result?.env_seen, 'seen', 'the task environment reaches the module');
  t.true(first.results.get('secret')?.noLog, 'no_log marks the result');
  t.is(first.results.get('secret')?.result?.no_log_seen, true, 'and the module was told (_ansible_no_log)');
  t.deepEqual(first.results.get('warns')?.result?.warnings, ['hw_line was asked to warn']);
  t.is(fallbackStats.uploads - before.uploads, 1, 'the payload went up once');
  t.is(fallbackStats.workersStarted - before.workersStarted, 1, 'one worker for the host');
  t.is(fallbackStats.payloadChecks - before.payloadChecks, 1, 'the host was asked once whether it has the payload');
  const cache = await host.sh('stat -c "%a %U" ~/.cache/hostwire ~/.cache/hostwire/ansible; find ~/.cache/hostwire -perm /022 | wc -l');
  t.is(cache, '700 root\n700 root\n0\n', 'the cache is private and nothing in it is group/world-writable');
  t.true(await noWorkerLeft(host), 'the worker ended with the run');

  const uploaded = fallbackStats.uploadBytes;
  const second = await play('converge', CONVERGE);
  t.is(second.summary.exitCode, 0);
  t.is(changedCount(second), 0, JSON.stringify(statuses(second)));
  t.is(fallbackStats.uploads - before.uploads, 1, 'the re-run uploaded nothing');
  t.is(fallbackStats.uploadBytes, uploaded);
  t.is(fallbackStats.payloadChecks - before.payloadChecks, 1, "the re-run's worker said in its hello that the payload is there: no extra round trip");
  const sent = Object.values(second.summary.bytesSent)[0]!;
  t.true(sent < 40_000, `the re-run sent ${sent} bytes (the payload alone is ${uploaded - before.uploadBytes})`);

  await host.sh('echo a=2 > /srv/f5/kv && echo drift > /srv/f5/line');
  const checked = await play('converge', CONVERGE, { check: true, diff: true });
  t.is(checked.summary.exitCode, 0);
  t.like(statuses(checked), { line: 'changed', kv: 'changed', 'known host': 'ok' });
  t.deepEqual(checked.results.get('line')?.diff, [{ header: '/srv/f5/line -> /srv/f5/line', before: 'drift\n', after: `hello ${host.state.hosts[0]!.name}\n` }]);
  t.is(await host.sh('cat /srv/f5/line /srv/f5/kv'), 'drift\na=2\n', '--check left the host alone');

  const fixed = await play('converge', CONVERGE);
  t.is(changedCount(fixed), 2);
  t.is(changedCount(await play('converge', CONVERGE)), 0);
  t.true(await noWorkerLeft(host));
});

test.serial('--check skips a module without check-mode support with its own message; a failing module fails the task; host data is never rendered', async (t) => {
  t.timeout(3 * 60_000);
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  await host.sh('mkdir -p /srv/f5 && rm -f /srv/f5/nocheck && printf "%s\\n" "{{ 7 * 6 }}" > /srv/f5/tpl');
  const nocheck = `
- hosts: all
  gather_facts: false
  tasks:
    - name: nocheck
      hw_nocheck: { path: /srv/f5/nocheck }
`;
  const checked = await play('nocheck', nocheck, { check: true });
  t.is(checked.results.get('nocheck')?.status, 'skipped');
  t.is(checked.results.get('nocheck')?.msg, 'remote module (hw_nocheck) does not support check mode');
  t.is(await host.sh('test -e /srv/f5/nocheck && echo yes || echo no'), 'no\n');
  t.is((await play('nocheck', nocheck)).results.get('nocheck')?.status, 'changed');

  const data = await play('data', `
- hosts: all
  gather_facts: false
  tasks:
    - name: read
      hw_line: { path: /srv/f5/tpl, line: replaced }
      register: r
    - name: echo
      copy: { content: "{{ r.before_text }}", dest: /srv/f5/echo }
    - name: bad args
      hw_line: { path: /srv/f5/x }
      ignore_errors: true
`);
  t.is(await host.sh('cat /srv/f5/echo'), '{{ 7 * 6 }}\n', 'a module result is data, not a template');
  const bad = data.results.get('bad args');
  t.is(bad?.status, 'failed');
  t.true(bad?.ignored);
  t.is(bad?.msg, 'missing required arguments: line');
});
