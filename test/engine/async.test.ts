// async/poll and async_status as ansible-core 2.14 runs them, on the local transport: the job runs
// detached in ~/.ansible_async/<jid>/ (HOME is this test's own folder), poll > 0 waits for it,
// poll: 0 fires and forgets, async_status reads it; the time limit kills the job on the host.
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localWorkspace, run } from './helpers.js';

// Jobs live under $HOME: a private one for this file's worker, never the user's own.
const home = mkdtempSync(path.join(tmpdir(), 'hw-async-home-'));
process.env.HOME = home;
test.after.always(() => rmSync(home, { recursive: true, force: true }));

const result = (r: Awaited<ReturnType<typeof run>>, name: string) => r.results.find((x) => x.task.name === name)?.result;
const registered = (r: Awaited<ReturnType<typeof run>>, name: string) => result(r, name)?.result as Record<string, unknown> | undefined;
const jobs = () => (existsSync(path.join(home, '.ansible_async')) ? readdirSync(path.join(home, '.ansible_async')) : []);

test.serial('poll > 0 waits for the job and registers the command result with the job fields; the job file is removed', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: slow
      shell: sleep 1; echo done; echo warn >&2
      async: 20
      poll: 1
      register: r
    - name: failing
      command: sh -c "exit 3"
      async: 20
      poll: 1
      ignore_errors: true
`);
  const slow = registered(r, 'slow')!;
  t.is(result(r, 'slow')?.status, 'changed');
  t.is(slow.stdout, 'done');
  t.is(slow.stderr, 'warn');
  t.deepEqual(slow.stdout_lines, ['done']);
  t.is(slow.rc, 0);
  t.is(slow.finished, 1);
  t.is(slow.started, 1);
  t.regex(String(slow.ansible_job_id), /^j\d+\.\d+$/);
  t.is(slow.results_file, path.join(home, '.ansible_async', String(slow.ansible_job_id)));
  t.regex(String(slow.delta), /^0:00:0[1-9]\.\d{6}$/);
  t.is(slow.cmd, 'sleep 1; echo done; echo warn >&2');
  const failing = result(r, 'failing')!;
  t.is(failing.status, 'failed');
  t.is(failing.msg, 'non-zero return code');
  t.is((failing.result as Record<string, unknown>).rc, 3);
  t.deepEqual(jobs(), []);
});

test.serial('poll: 0 fires and forgets; async_status with until reads it to the end', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: fire
      shell: sleep 2; echo "{{ inventory_hostname }} finished"
      async: 30
      poll: 0
      register: job
    - name: wait
      async_status:
        jid: "{{ job.ansible_job_id }}"
      register: s
      until: s.finished
      retries: 20
      delay: 1
`);
  const fire = registered(r, 'fire')!;
  t.is(result(r, 'fire')?.status, 'ok');
  t.like(fire, { started: 1, finished: 0, changed: false });
  const s = registered(r, 'wait')!;
  t.is(result(r, 'wait')?.status, 'changed');
  t.like(s, { finished: 1, started: 1, rc: 0, stdout: 'h1 finished', ansible_job_id: fire.ansible_job_id });
  t.true(Number(s.attempts) >= 2, 'the first reads saw the job running');
  t.deepEqual(jobs(), []);
});

test.serial('the async time limit kills the job on the host: poll > 0 fails after it, async_status says Timeout exceeded', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - file: { path: "{{ work }}", state: directory }
    - name: too slow
      shell: sleep 4; touch {{ work }}/polled-ran-on
      async: 1
      poll: 1
      ignore_errors: true
    - name: too slow, forgotten
      shell: (sleep 4; touch {{ work }}/child-ran-on) & sleep 4; touch {{ work }}/forgotten-ran-on
      async: 1
      poll: 0
      register: job
    - name: read
      async_status: { jid: "{{ job.ansible_job_id }}" }
      register: s
      until: s.finished
      retries: 10
      delay: 1
      ignore_errors: true
`);
  // The host's watchdog and the controller's count race at the limit: either is Ansible's answer.
  t.is(result(r, 'too slow')?.status, 'failed');
  t.regex(String(result(r, 'too slow')?.msg), /^(Timeout exceeded|async task did not complete within the requested time - 1s)$/);
  t.like(registered(r, 'read'), { finished: 1, failed: true, msg: 'Timeout exceeded' });
  await new Promise((res) => setTimeout(res, 4500));
  t.false(existsSync(`${ws.dir}/h1/polled-ran-on`), 'the killed job never finished');
  t.false(existsSync(`${ws.dir}/h1/forgotten-ran-on`));
  t.false(existsSync(`${ws.dir}/h1/child-ran-on`), 'what the job started in the background was killed with it');
});

test.serial('async is refused before the run for a module hostwire cannot background; under --check it fails as in Ansible', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const before = jobs();
  const err = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - copy: { content: x, dest: /tmp/never }
      async: 10
`).catch((e: Error) => e);
  t.regex(String((err as Error).message), /site\.yml:5:7: async is not supported for this task: hostwire runs command and shell in the background, not copy/);
  const bad = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - command: echo
      async: soon
`).catch((e: Error) => e);
  t.regex(String((bad as Error).message), /'async' must be a whole number of seconds, got "soon"/);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: checked
      command: echo hi
      async: 10
      poll: 1
`, { check: true });
  t.is(result(r, 'checked')?.msg, 'check mode and async cannot be used on same task.');
  // No job of this run: the earlier test's killed job may still be ending on a loaded machine, so only
  // what is new since this test began counts.
  t.deepEqual(jobs().filter((j) => !before.includes(j)), []);
});

test.serial('async_status refuses a jid that is not a job id (it names a path on the host)', async (t) => {
  const ws = localWorkspace(t, ['h1']);
  const r = await run(ws, `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: bad jid
      async_status: { jid: "../../etc" }
      ignore_errors: true
    - name: unknown job
      async_status: { jid: "j123.456" }
      ignore_errors: true
`);
  t.regex(String(result(r, 'bad jid')?.msg), /not an async job id: "\.\.\/\.\.\/etc"/);
  t.is(result(r, 'unknown job')?.msg, 'could not find job');
});
