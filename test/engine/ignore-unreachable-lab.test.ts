// ignore_unreachable on two real lab hosts, one made unreachable by stopping its sshd (a session opened
// before keeps working, so the test can start it again). The first playbook is the one run with
// ansible-playbook 2.14.18 (`ip netns exec <lab> ansible-playbook -i inv.yml site.yml`) on the same
// two hosts: the recap and the registered result below are what it printed. The second shows a host
// kept by ignore_unreachable being reached again (connection and run lock) once its sshd is back.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labDown, labExec, labInventoryYaml, labUp } from '../../src/lab/index.js';
import { createTransport } from '../../src/transports/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import { EXIT } from '../../src/engine/runner/run-options.js';
import type { HostResult, RunEvent } from '../../src/engine/runner/events.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);

const SITE = `
- hosts: all
  gather_facts: true
  ignore_unreachable: true
  tasks:
    - name: a
      command: echo a
      register: ra
    - name: show a
      debug:
        var: ra
- hosts: all
  gather_facts: false
  tasks:
    - name: b
      command: echo b
      ignore_unreachable: "{{ keep | default(true) }}"
      register: rb
    - name: show b
      debug:
        msg: "{{ rb.unreachable | default('reached') }}"
    - name: c
      command: echo c
- hosts: all
  gather_facts: false
  tasks:
    - name: d
      command: "true"
`;

// The second host comes back while the first sleeps; the kept host's next task reaches and locks it.
const BACK = (live: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: first
      command: echo first
      ignore_unreachable: true
    - name: settle
      command: sleep 3
      when: inventory_hostname == '${live}'
    - name: lock
      command: cat /run/hostwire/run.lock
      register: lockr
`;

test('ignore_unreachable: recap and registered result as ansible-playbook; a kept host is reached again', async (t) => {
  t.timeout(240_000, `${LAB}: the test's own deadline`);
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${LAB}-`));
  let keep: ReturnType<typeof createTransport> | undefined;
  t.teardown(async () => {
    await keep?.close().catch(() => undefined);
    await labDown(LAB).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  await labDown(LAB).catch(() => undefined);
  const up = await labUp({ name: LAB, hosts: 2 });
  const [live, dead] = up.state.hosts;
  keep = createTransport(dead!.name, { host: dead!.ip, user: 'root', privateKeyFile: up.state.keyFile, knownHostsFile: up.state.knownHostsFile, netns: up.state.netns });
  await keep.connect();
  const stopped = await keep.exec('systemctl stop ssh.socket ssh.service; systemctl is-active ssh.service');
  t.is(stopped.stdout.trim(), 'inactive');
  t.not((await labExec(up.state, dead!, 'true')).code, 0, 'a new SSH connection is refused');
  const inventory = path.join(dir, 'inventory.yml');
  writeFileSync(inventory, labInventoryYaml(up.state));
  const run = async (name: string, yaml: string, onEvent: (e: RunEvent) => void = () => undefined) => {
    const playbook = path.join(dir, `${name}.yml`);
    writeFileSync(playbook, yaml);
    const events: RunEvent[] = [];
    const summary = await runPlaybook({ playbook, inventory: [inventory], retryFile: false, onEvent: (e) => { events.push(e); onEvent(e); } });
    const result = (task: string, host: string): HostResult | undefined => events.flatMap((e) => (e.type === 'host_result' && e.task.name === task && e.result.host === host ? [e.result] : []))[0];
    return { summary, result };
  };

  const site = await run('site', SITE);
  // ansible-playbook: s8u-2 ok=5 changed=0 unreachable=1 failed=0 skipped=0 rescued=0 ignored=3 (rc 4).
  t.is(site.summary.exitCode, EXIT.unreachable);
  t.deepEqual(site.summary.stats[dead!.name], { ok: 5, changed: 0, unreachable: 1, failed: 0, skipped: 0, rescued: 0, ignored: 3 });
  t.deepEqual(site.summary.stats[live!.name], { ok: 7, changed: 4, unreachable: 0, failed: 0, skipped: 0, rescued: 0, ignored: 0 });
  t.like(site.result('Gathering Facts', dead!.name), { status: 'unreachable', ignored: true });
  t.like(site.result('a', dead!.name), { status: 'unreachable', ignored: true });
  t.like(site.result('c', dead!.name), { status: 'unreachable' });
  t.falsy(site.result('c', dead!.name)?.ignored);
  t.true(site.result('d', dead!.name) === undefined, 'a host unreachable on a task that does not ignore it leaves the run');
  // Ansible registers {changed: false, msg, unreachable: true}; debug shows it on the unreachable host.
  const ra = (site.result('show a', dead!.name)?.result as { ra?: Record<string, unknown> } | undefined)?.ra;
  t.deepEqual(Object.keys(ra ?? {}).sort(), ['changed', 'msg', 'unreachable']);
  t.like(ra, { changed: false, unreachable: true });
  t.regex(String(ra?.msg), /ECONNREFUSED/);
  t.like(site.result('show b', dead!.name), { status: 'ok', msg: 'true' } as Partial<HostResult>);

  let restarted: Promise<unknown> | undefined;
  const back = await run('back', BACK(live!.name), (e) => {
    if (e.type === 'host_result' && e.task.name === 'first' && e.result.host === dead!.name) restarted = keep!.exec('systemctl start ssh.service');
  });
  await restarted;
  t.is(back.summary.exitCode, EXIT.ok);
  t.deepEqual(back.summary.stats[dead!.name], { ok: 2, changed: 1, unreachable: 0, failed: 0, skipped: 1, rescued: 0, ignored: 1 });
  const locked = back.result('lock', dead!.name);
  t.is(locked?.status, 'changed', locked?.msg);
  t.regex(String(locked?.stdout), new RegExp(`pid ${process.pid} `), 'the host reached again runs under this run\'s lock');
});
