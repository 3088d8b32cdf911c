// script on a real lab host: the controller's script runs with its arguments as written, in chdir,
// with an executable; creates makes it converge (second run changed=0); --check predicts without
// touching the host; a failing script fails with Ansible's result; nothing is left in the host's tmp.
// Result keys and messages as ansible-core 2.14's script action registered them on a lab host
// (stdout/stderr apart here: Ansible's ssh tty folds them).
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent, RunSummary } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';

const LAB = 'mfscript';
const dir = mkdtempSync(path.join(tmpdir(), 'hw-mfscript-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const CONVERGE = `
- hosts: all
  gather_facts: false
  tasks:
    - name: prepare
      script: prepare.sh "a b" c creates=/srv/mfs/made
      args:
        chdir: /srv
      register: r
    - name: python
      ansible.builtin.script:
        cmd: hello.py 1 '2 3'
        executable: python3
        removes: /srv/mfs/made
        creates: /srv/mfs/py
`;

async function play(name: string, yaml: string, check = false): Promise<{ summary: RunSummary; result(task: string): Record<string, any> }> {
  const playbook = path.join(dir, `${name}.yml`);
  writeFileSync(playbook, yaml);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], check, retryFile: false, onEvent: (e) => events.push(e) });
  const result = (task: string) => {
    const e = events.find((x) => x.type === 'host_result' && x.task.name === task);
    return e && e.type === 'host_result' ? { status: e.result.status, ...(e.result.result as object) } : {};
  };
  return { summary, result };
}

test('script on a lab host: converge, again changed=0, --check touches nothing, failures and shape as Ansible', async (t) => {
  t.timeout(4 * 60_000);
  host = await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  mkdirSync(path.join(dir, 'files'));
  writeFileSync(path.join(dir, 'files', 'prepare.sh'), '#!/bin/sh\necho "args:$#:$1|$2"\necho "cwd:$(pwd)"\necho "err line" >&2\nmkdir -p /srv/mfs && touch /srv/mfs/made\n');
  writeFileSync(path.join(dir, 'files', 'hello.py'), 'import sys\nprint("py", sys.argv[1:])\nopen("/srv/mfs/py", "w").close()\n');
  writeFileSync(path.join(dir, 'files', 'fail.sh'), '#!/bin/sh\necho out; echo bad >&2; exit 3\n');
  const name = host.state.hosts[0]!.name;

  const checked = await play('check', CONVERGE, true);
  t.like(checked.result('prepare'), { status: 'changed' }, 'creates absent: --check says it would run');
  t.is(await host.sh('ls /srv/mfs 2>/dev/null || echo absent'), 'absent\n', '--check ran nothing');

  const first = await play('converge', CONVERGE);
  t.is(first.summary.exitCode, 0);
  t.deepEqual(first.result('prepare'), {
    status: 'changed', changed: true, failed: false, rc: 0, stdout: 'args:2:a b|c\ncwd:/srv\n', stdout_lines: ['args:2:a b|c', 'cwd:/srv'], stderr: 'err line\n', stderr_lines: ['err line'],
  });
  t.like(first.result('python'), { status: 'changed', rc: 0, stdout: "py ['1', '2 3']\n" });
  t.is(await host.sh('ls /srv/mfs'), 'made\npy\n');
  t.is(await host.sh('ls -d /tmp/hostwire-script.* 2>/dev/null || echo none'), 'none\n', 'the temp folder is gone');

  const again = await play('again', CONVERGE);
  t.like(again.summary.stats[name], { changed: 0, skipped: 2, failed: 0 });
  t.deepEqual(again.result('prepare'), { status: 'skipped', changed: false, failed: false, skipped: true, msg: '/srv/mfs/made exists, matching creates option' });
  const checkedAgain = await play('check-again', CONVERGE, true);
  t.like(checkedAgain.summary.stats[name], { changed: 0 });

  const failed = await play('fail', `
- hosts: all
  gather_facts: false
  tasks:
    - name: fail
      script: fail.sh
      ignore_errors: true
    - name: plain-check
      script: fail.sh
      check_mode: true
`);
  t.like(failed.result('fail'), { status: 'failed', changed: true, failed: true, msg: 'non-zero return code', rc: 3, stdout: 'out\n', stderr: 'bad\n' });
  t.deepEqual(failed.result('plain-check'), { status: 'skipped', changed: false, failed: false, skipped: true, msg: 'Check mode is not supported for this task.' });
});
