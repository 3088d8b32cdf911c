// async/poll and async_status over SSH on a real lab host: a fire-and-forget job outlives the exec (and
// the SSH channel) that started it and async_status reads it later; the time limit kills the job's
// whole process group on the host; poll > 0 returns the command's result.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { HostResult, RunEvent } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-d2async-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function play(yaml: string): Promise<{ exitCode: number; result(name: string): HostResult | undefined }> {
  host ??= await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const playbook = path.join(dir, 'site.yml');
  writeFileSync(playbook, yaml);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], retryFile: false, onEvent: (e) => events.push(e) });
  const results = events.flatMap((e) => (e.type === 'host_result' ? [e] : []));
  return { exitCode: summary.exitCode, result: (name) => results.find((e) => e.task.name === name)?.result };
}

test.serial('a poll: 0 job outlives its SSH exec; async_status reads it to the end; poll > 0 returns the result', async (t) => {
  t.timeout(4 * 60_000);
  const r = await play(`
- hosts: all
  gather_facts: false
  tasks:
    - name: fire
      shell: sleep 3; echo "$(id -un) on $(hostname)" | tee /srv/d2-async-out
      async: 60
      poll: 0
      register: job
    - name: meanwhile
      command: cat /srv/d2-async-out
      failed_when: false
      register: early
    - name: wait
      async_status: { jid: "{{ job.ansible_job_id }}" }
      register: s
      until: s.finished
      retries: 30
      delay: 1
    - name: polled
      command: sleep 2
      async: 30
      poll: 1
      register: p
`);
  t.is(r.exitCode, 0);
  t.not((r.result('meanwhile')?.result as { rc: number }).rc, 0, 'the job was still running when the next task ran');
  const s = r.result('wait')?.result as Record<string, unknown>;
  t.is(s.finished, 1);
  t.regex(String(s.stdout), /^root on /);
  t.is((await host!.sh('cat /srv/d2-async-out')).trim(), String(s.stdout));
  const p = r.result('polled')?.result as Record<string, unknown>;
  t.like(p, { finished: 1, rc: 0, changed: true });
  t.deepEqual(p.cmd, ['sleep', '2']);
  t.is((await host!.sh('ls -A ~/.ansible_async | wc -l')).trim(), '0', 'finished jobs leave no files');
  t.is((await host!.sh('stat -c %a ~/.ansible_async')).trim(), '700');
});

test.serial('the async limit kills the job and everything it started on the host', async (t) => {
  t.timeout(4 * 60_000);
  await (host ??= await labHost(LAB)).sh('rm -f /srv/d2-async-late');
  const r = await play(`
- hosts: all
  gather_facts: false
  tasks:
    - name: forgotten
      shell: (sleep 41; touch /srv/d2-async-late) & sleep 42; touch /srv/d2-async-late
      async: 2
      poll: 0
      register: job
    - name: read
      async_status: { jid: "{{ job.ansible_job_id }}" }
      register: s
      until: s.finished
      retries: 15
      delay: 1
      ignore_errors: true
`);
  t.like(r.result('read')?.result, { finished: 1, failed: true, msg: 'Timeout exceeded' });
  t.is((await host!.sh('pgrep -f "sleep 4[12]" | wc -l')).trim(), '0', 'no process of the job is left');
  t.is((await host!.sh('test -e /srv/d2-async-late && echo yes || echo no')).trim(), 'no');
});
