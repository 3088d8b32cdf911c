// assert's `that:` and debug's `var:` are expressions the module evaluates itself. Rendered first by the runner, an embedded
// template over data (`that: "{{ banner.msg }}"`) became text that the condition then rendered again:
// the data was evaluated as a template (Ansible's CVE-2023-5764; ansible-core keeps assert's args
// untemplated). Here the data is a lookup of a controller file holding "False": evaluating it would
// make the assertion fail.
import test from 'ava';
import path from 'node:path';
import { localInventory, run, workspace } from './helpers.js';

test('assert never evaluates the text of a registered result', async (t) => {
  const ws = workspace();
  t.teardown(() => ws.cleanup());
  localInventory(ws, ['h1']);
  const controller = ws.write('controller.txt', 'False');
  ws.write('motd', `{{ lookup('file', '${controller}') }}`);
  const r = await run(
    ws,
    `
- hosts: h1
  gather_facts: false
  tasks:
    - name: read the banner
      debug: { msg: "{{ lookup('file', '${path.join(ws.dir, 'motd')}') }}" }
      register: banner
    - name: embedded template over data
      assert: { that: "{{ banner.msg }}" }
    - name: the data is compared as text
      assert:
        that:
          - banner.msg == "{{ '{{' }} lookup('file', '${controller}') }}"
          - "{{ banner.msg is string }}"
    - name: show the banner through var
      debug: { var: "{{ banner.msg }}" }
`,
  );
  const failed = r.results.filter((x) => x.result.status === 'failed').map((x) => `${x.task.name}: ${x.result.msg}`);
  t.deepEqual(failed, []);
  t.deepEqual(r.byTask('embedded template over data'), { h1: 'ok' });
  t.deepEqual(r.byTask('the data is compared as text'), { h1: 'ok' });
  const shown = r.results.find((x) => x.task.name === 'show the banner through var')!.result.result?.['{{ banner.msg }}'];
  t.is(shown, `{{ lookup('file', '${controller}') }}`, 'debug var shows the text, it does not evaluate it');
});
