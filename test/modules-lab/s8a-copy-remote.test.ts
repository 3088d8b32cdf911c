// copy with remote_src on a real lab host: a file (mode, group, backup), a file into a directory made
// for it and into an existing one (mode: preserve), a directory into a directory, a directory's
// content into a new directory, a directory into a missing dest. Each tree left on the host is
// compared with the one ansible-playbook 2.14 left running the same playbook on the same kind of host
// (fixtures/copy-remote/ansible.json, recorded side by side); the one difference is hostwire's fix of
// 2.14 skipping a symlink at the top of a directory it merges into (so its task never converges there).
// Converge, re-run, drift the sources, --check changes nothing, converge again, then changed=0.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LabHost } from '../helpers/lab-host.js';
import { labModuleTest } from '../helpers/lab-converge.js';
import type { LabPlay } from '../helpers/lab-play.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const fixtures = path.join(root, 'test/modules-lab/fixtures/copy-remote');
const read = (f: string) => readFileSync(path.join(fixtures, f), 'utf8');
const ansible = JSON.parse(read('ansible.json')) as Record<'after_first' | 'after_second' | 'after_drift', string[]>;
const playbook = read('site.yml').replace('- hosts: all', '- hosts: all\n  vars: { out: /srv/s8a-hw }');
const lab = labModuleTest(LAB);
let host: LabHost | undefined;
let play: LabPlay;

test.before(async () => {
  ({ host, play } = await lab.up());
});

/** The tree under /srv/s8a-hw as listing.sh prints it, backup names normalised, sorted here. */
async function listing(): Promise<string[]> {
  const out = await host!.sh(`bash -c ${shq(read('listing.sh'))} x /srv/s8a-hw`);
  return out.replace(/\.\d+\.[0-9-]+@[0-9:]+~/g, '.BACKUP~').trimEnd().split('\n').sort();
}

const shq = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
/** Ansible's tree plus the link 2.14 leaves out of fresh/tree (see the header). */
const expected = (lines: string[]) => [...lines, 'l 777 root:root ./fresh/tree/link top.txt'].sort();

test.serial('copy remote_src converges files and trees as ansible-playbook 2.14 does, --check touches nothing', async (t) => {
  t.timeout(4 * 60_000);
  await host!.sh(read('setup.sh'));
  const first = await play('first', playbook);
  t.is(first.changed, 6);
  t.deepEqual(await listing(), expected(ansible.after_first));

  // As under Ansible, the second run moves mode from dest to dest/<basename> for the missing-dest case.
  const second = await play('second', playbook);
  t.is(second.changed, 1);
  t.like(second.result('tree into missing dest'), { outcome: 'changed' });
  t.deepEqual(await listing(), expected(ansible.after_second));
  const third = await play('third', playbook);
  t.is(third.changed, 0, 'converged');

  await host!.sh(read('drift.sh'));
  const before = await listing();
  const checked = await play('check', playbook, { check: true, diff: true });
  t.is(checked.changed, 6);
  t.deepEqual(await listing(), before, '--check changed nothing on the host');
  const diffed = checked.events.find((e) => e.type === 'host_result' && e.task.name === 'tree content');
  t.regex(JSON.stringify(diffed), /merged\/sub\/new\.txt/, '--diff names the file the copy would create');

  const drifted = await play('drifted', playbook);
  t.is(drifted.changed, 5);
  t.regex(String(drifted.result('file').backup_file), /^\/srv\/s8a-hw\/app\.conf\.\d+\.\d{4}-\d\d-\d\d@\d\d:\d\d:\d\d~$/);
  t.deepEqual(await listing(), expected(ansible.after_drift));
  const again = await play('again', playbook);
  t.is(again.changed, 0);
});

test.serial('copy remote_src refuses what Ansible refuses, naming the path', async (t) => {
  t.timeout(2 * 60_000);
  const bad = (src: string, dest: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: bad
      copy: { src: ${src}, dest: ${dest}, remote_src: true }
      ignore_errors: true
`;
  const missing = await play('missing', bad('/srv/s8a-nowhere', '/tmp/x'), { mayFail: true });
  t.like(missing.result('bad'), { outcome: 'failed', msg: 'Source /srv/s8a-nowhere not found' });
  const noDir = await play('nodir', bad('/srv/s8a-src/app.conf', '/srv/s8a-none/x'), { mayFail: true });
  t.like(noDir.result('bad'), { outcome: 'failed', msg: 'Destination directory /srv/s8a-none does not exist' });
  const notFile = await play('notfile', bad('/dev/null', '/tmp/x'), { mayFail: true });
  t.like(notFile.result('bad'), { outcome: 'failed', msg: "Cannot copy invalid source '/dev/null': not a file" });
});

test.serial('copy remote_src validate: the copy is checked beside dest before it replaces anything', async (t) => {
  t.timeout(2 * 60_000);
  await host!.sh('mkdir -p /srv/s8a-val && printf "a=1\\n" > /srv/s8a-val/src.conf && printf "keep\\n" > /srv/s8a-val/dest.conf');
  const validated = (check: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: copy
      copy: { src: /srv/s8a-val/src.conf, dest: /srv/s8a-val/dest.conf, remote_src: true, validate: "grep -q ${check} %s" }
      ignore_errors: true
`;
  const refused = await play('refused', validated('^b='), { mayFail: true });
  t.like(refused.result('copy'), { outcome: 'failed' });
  t.is(await host!.sh('cat /srv/s8a-val/dest.conf; ls -A /srv/s8a-val'), 'keep\ndest.conf\nsrc.conf\n', 'dest untouched, no temp file left');
  const passed = await play('passed', validated('^a='));
  t.like(passed.result('copy'), { outcome: 'changed' });
  t.is(await host!.sh('cat /srv/s8a-val/dest.conf'), 'a=1\n');
});
