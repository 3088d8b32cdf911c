// After a secret changes, the diff of the task that writes it would print the previous value, read from
// the host and not known to be secret. A task whose args read a secret shows no diff (issue 18): not in
// the events (--diff, -v, --json), not in the HTML report, not in a registered result.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createReportCollector, renderReportHtml } from '../../src/report/index.js';
import { clearSecrets } from '../../src/vault/index.js';
import { SECRET_DIFF_NOTE } from '../../src/engine/runner/secret-diff.js';
import { localInventory, run, workspace } from './helpers.js';

const OLD = 'old-db-password-7Hq2xv';
const NEW = 'new-db-password-P9w3kd';

test.after.always(() => clearSecrets());

test.serial('the diff of a task that reads a secret is hidden; other diffs stay', async (t) => {
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  localInventory(ws, ['h1']);
  ws.write('h1/app.conf', `user=app\npassword=${OLD}\n`);
  ws.write('h1/plain.conf', 'colour=blue\n');
  const report = createReportCollector();
  const r = await run(
    ws,
    `
- hosts: h1
  gather_facts: false
  vars:
    vault_db_password: ${NEW}
    conf: "user=app\\npassword={{ vault_db_password | trim }}\\n"
  tasks:
    - name: write the secret
      copy: { content: "{{ conf }}", dest: "{{ work }}/app.conf" }
      register: written
    - name: show the registered result
      debug: { var: written }
    - name: write a plain file
      copy: { content: "colour=green\\n", dest: "{{ work }}/plain.conf" }
`,
    { diff: true, onEvent: undefined },
  );
  for (const e of r.events) report.listener(e);
  t.is(r.summary.exitCode, 0);
  t.is(readFileSync(path.join(ws.dir, 'h1/app.conf'), 'utf8'), `user=app\npassword=${NEW}\n`, 'the secret was written');

  const secretTask = r.results.find((x) => x.task.name === 'write the secret')!.result;
  t.is(secretTask.status, 'changed');
  t.deepEqual(secretTask.diff?.map((d) => [d.before, d.after]), [[SECRET_DIFF_NOTE, SECRET_DIFF_NOTE]]);
  const plainTask = r.results.find((x) => x.task.name === 'write a plain file')!.result;
  t.deepEqual(plainTask.diff?.map((d) => [d.before, d.after]), [['colour=blue\n', 'colour=green\n']], 'a task without secrets keeps its diff');

  const everything = JSON.stringify(r.events) + renderReportHtml(report.data());
  t.false(everything.includes(OLD), 'the old secret is in no event, no registered result and not in the report');
  t.false(everything.includes(NEW), 'nor the new one');
  t.true(everything.includes('colour=blue'), 'the report still shows the plain diff');
});
