// script on a real lab host: the controller's script runs with its arguments as written, in chdir,
// with an executable; creates makes it converge (second run changed=0); --check predicts without
// touching the host; a failing script fails with Ansible's result; nothing is left in the host's tmp.
// Result keys and messages as ansible-core 2.14's script action registered them on a lab host
// (stdout/stderr apart here: Ansible's ssh tty folds them).
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { convergePlay, labModuleTest } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const lab = labModuleTest(testLabName(import.meta.url));
const dir = lab.dir;

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

test('script on a lab host: converge, again changed=0, --check touches nothing, failures and shape as Ansible', async (t) => {
  t.timeout(4 * 60_000);
  mkdirSync(path.join(dir, 'files'));
  writeFileSync(path.join(dir, 'files', 'prepare.sh'), '#!/bin/sh\necho "args:$#:$1|$2"\necho "cwd:$(pwd)"\necho "err line" >&2\nmkdir -p /srv/mfs && touch /srv/mfs/made\n');
  writeFileSync(path.join(dir, 'files', 'hello.py'), 'import sys\nprint("py", sys.argv[1:])\nopen("/srv/mfs/py", "w").close()\n');
  writeFileSync(path.join(dir, 'files', 'fail.sh'), '#!/bin/sh\necho out; echo bad >&2; exit 3\n');
  const { host, play } = await lab.up();
  const made = () => host.sh('ls /srv/mfs 2>/dev/null || echo absent');

  const { checked, first, again } = await convergePlay(t, play, 'converge', CONVERGE, { state: made });
  t.like(checked!.result('prepare'), { outcome: 'changed' }, 'creates absent: --check says it would run');
  t.deepEqual(first.result('prepare'), {
    outcome: 'changed', changed: true, failed: false, rc: 0, stdout: 'args:2:a b|c\ncwd:/srv\n', stdout_lines: ['args:2:a b|c', 'cwd:/srv'], stderr: 'err line\n', stderr_lines: ['err line'],
  });
  t.like(first.result('python'), { outcome: 'changed', rc: 0, stdout: "py ['1', '2 3']\n" });
  t.is(await made(), 'made\npy\n');
  t.is(await host.sh('ls -d /tmp/hostwire-script.* 2>/dev/null || echo none'), 'none\n', 'the temp folder is gone');
  t.like(again.summary.stats[host.state.hosts[0]!.name], { changed: 0, skipped: 2, failed: 0 });
  t.deepEqual(again.result('prepare'), { outcome: 'skipped', changed: false, failed: false, skipped: true, msg: '/srv/mfs/made exists, matching creates option' });

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
  t.like(failed.result('fail'), { outcome: 'failed', changed: true, failed: true, msg: 'non-zero return code', rc: 3, stdout: 'out\n', stderr: 'bad\n' });
  t.deepEqual(failed.result('plain-check'), { outcome: 'skipped', changed: false, failed: false, skipped: true, msg: 'Check mode is not supported for this task.' });
});
