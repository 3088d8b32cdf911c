// include_vars on a real lab host run: one file, a file under name:, a directory with files_matching,
// ignore_files and depth, extensions, ignore_unknown_extensions, hash_behaviour: merge into a var (and
// under a new name, which fails as in Ansible), an unknown extension refused. The values and registered
// results are written on the host as JSON (fixtures/include-vars/site.yml) and compared with what
// ansible-playbook 2.14 wrote running the same playbook on the same files (fixtures/include-vars/ansible.json).
import test from 'ava';
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { labModuleTest } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const fixtures = path.join(root, 'test/modules-lab/fixtures/include-vars');
const lab = labModuleTest(testLabName(import.meta.url));
const OUT = '/root/iv-hw.json';

test.serial('include_vars loads files and directories as ansible-playbook 2.14 does; re-run changed=0', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  cpSync(path.join(fixtures, 'vars'), path.join(lab.dir, 'vars'), { recursive: true });
  const playbook = readFileSync(path.join(fixtures, 'site.yml'), 'utf8').replace('- hosts: all', `- hosts: all\n  vars: { out: ${OUT} }`);
  const recorded = readFileSync(path.join(fixtures, 'ansible.json'), 'utf8').split('{playbook_dir}').join(lab.dir);
  const ansible = (JSON.parse(recorded) as { written: unknown }).written;

  const first = await play('first', playbook);
  t.is(first.changed, 1, 'only the file written changes');
  t.is(first.summary.stats[Object.keys(first.summary.stats)[0]!]!.ignored, 2, 'merge under a new name and the unknown extension fail, ignored');
  t.deepEqual(JSON.parse(await host.sh(`cat ${OUT}`)), ansible);
  t.is(first.result('unknown extension').outcome, 'failed');
  t.regex(String(first.result('merge under a new name').msg), /^failed to combine variables, expected dicts but got a 'NoneType' and a 'dict': \nnull\n\{"nested": /);

  const again = await play('again', playbook);
  t.is(again.changed, 0);
  const checked = await play('check', playbook, { check: true });
  t.is(checked.changed, 0, '--check on the converged host predicts nothing');
});
