// End to end: `hostwire run --report` on two local hosts, then the page opened in headless
// Chromium: the DOM after its scripts ran, and a screenshot that must show the report's colours.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpDom, screenshot } from './chromium.js';
import { countColor, decodePng, distinctColors } from './png.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'hw-report-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function hostwire(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
  });
}

test.serial('a run report shows recap, timeline, diffs and failures in a real browser', async (t) => {
  for (const h of ['h1', 'h2']) mkdirSync(path.join(dir, h));
  writeFileSync(path.join(dir, 'inv.ini'), `[nodes]\nh1 ansible_connection=local work=${dir}/h1\nh2 ansible_connection=local work=${dir}/h2\n`);
  writeFileSync(path.join(dir, 'site.yml'), `
- hosts: nodes
  gather_facts: false
  tasks:
    - name: write the node config
      copy:
        content: "node={{ inventory_hostname }}\\nmtu=1450\\n"
        dest: "{{ work }}/node.conf"
    - name: report the kernel
      command: uname -s
      changed_when: false
    - name: only on h2
      command: "true"
      when: inventory_hostname == 'h2'
    - name: probe a missing tool
      shell: "echo ovs-vsctl - command not found >&2; exit 127"
      ignore_errors: true
`);
  const report = path.join(dir, 'run.html');
  const r = await hostwire(['run', 'site.yml', '-i', 'inv.ini', '--diff', '--report', report]);
  t.is(r.code, 0, r.stderr);

  const dom = await dumpDom(report);
  t.regex(dom, /<title>hostwire run: site\.yml<\/title>/);
  t.regex(dom, /id="run-status"[^>]*>success</);
  for (const h of ['h1', 'h2']) t.regex(dom, new RegExp(`<tr data-host="${h}">.*?data-k="changed"><b[^>]*>(\\d)</b>`));
  t.is(dom.match(/class="tl-bar"/g)?.length, 8, 'one bar per host per task');
  t.regex(dom, /Changes \(3\)/);
  t.regex(dom, /<span class="dl da">\+node=h1<\/span><span class="dl da">\+mtu=1450<\/span>/);
  t.regex(dom, /Failures \(2\)/);
  t.regex(dom, /ovs-vsctl - command not found/);
  t.regex(dom, /rc = 127/);
  t.notRegex(dom, /(?:src|href)=["']?(?:https?:)?\/\//, 'the page fetches nothing');

  const png = path.join(dir, 'report.png');
  await screenshot(report, png, 1200, 1400);
  const img = decodePng(readFileSync(png));
  t.deepEqual([img.width, img.height], [1200, 1400]);
  t.true(distinctColors(img) > 40, 'not a blank page');
  t.true(countColor(img, '#1f2d3d') > 2000, 'the dark header is drawn');
  t.true(countColor(img, '#d89a00') > 50, 'changed bars/cards are drawn');
  t.true(countColor(img, '#2e9d4f') > 50, 'ok bars and the success pill are drawn');
});
