// stat, slurp, ping and raw in playbooks on a real lab host: raw acts (and is skipped under --check),
// the reads return Ansible's shapes with host text kept as data, and a play of reads alone costs
// one exec per host (the run lock's, which carries the batched reads).
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labInventoryYaml } from '../../src/lab/index.js';
import { runPlaybook } from '../../src/engine/runner/run-playbook.js';
import type { RunEvent, RunSummary } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-n6reads-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const failures = (events: RunEvent[]) =>
  events.flatMap((e) => (e.type === 'host_result' && (e.result.status === 'failed' || e.result.status === 'unreachable') ? [`${e.task.name}: ${e.result.msg}`] : []));

async function play(name: string, yaml: string, check = false): Promise<{ events: RunEvent[]; summary: RunSummary; result(task: string): Record<string, any> }> {
  const playbook = path.join(dir, `${name}.yml`);
  writeFileSync(playbook, yaml);
  const events: RunEvent[] = [];
  const summary = await runPlaybook({ playbook, inventory: [path.join(dir, 'inventory.yml')], check, retryFile: false, onEvent: (e) => events.push(e) });
  if (summary.exitCode !== 0) throw new Error(`${name}: exit ${summary.exitCode}\n${failures(events).join('\n')}`);
  const result = (task: string) => {
    const e = events.find((x) => x.type === 'host_result' && x.task.name === task);
    if (!e || e.type !== 'host_result') throw new Error(`no result for ${task}`);
    return { status: e.result.status, ...(e.result.result as Record<string, unknown>) };
  };
  return { events, summary, result };
}

const HOSTILE = `/nowhere/{{ lookup('file', '/etc/shadow') }}`;

const READS = `
- hosts: all
  gather_facts: false
  tasks:
    - name: stat file
      stat: { path: /srv/n6/raw.txt }
      register: st
    - name: stat link
      stat: path=/srv/n6/evil get_mime=no
      register: ev
    - name: stat missing
      ansible.builtin.stat: { path: /srv/n6/none, checksum_algorithm: sha256 }
      register: gone
    - name: slurp
      slurp: { path: /srv/n6/raw.txt }
      register: sl
    - name: ping
      ping:
      register: pg
    - name: check
      assert:
        that:
          - st.stat.exists and st.stat.isreg and st.stat.mode == '0640' and st.stat.size == 3
          - st.stat.checksum == '55ca6286e3e4f4fba5d0448333fa99fc5a404a73'
          - st.stat.pw_name == 'root' and st.stat.uid == 0
          - ev.stat.islnk and not ev.stat.isreg
          - not gone.stat.exists
          - sl.content | b64decode == 'hi\\n'
          - sl.encoding == 'base64'
          - pg.ping == 'pong'
`;

test.serial('raw acts and is skipped under --check; stat/slurp/ping read in one batched exec, host text stays data', async (t) => {
  t.timeout(4 * 60_000);
  host = await labHost(LAB);
  writeFileSync(path.join(dir, 'inventory.yml'), labInventoryYaml(host.state));
  const hostName = host.state.hosts[0].name;

  const rawPlay = (file: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: raw
      raw: mkdir -p /srv/n6 && printf 'hi\\n' > /srv/n6/${file} && chmod 0640 /srv/n6/${file} && echo made >&2
      register: r
`;
  const checked = await play('raw-check', rawPlay('raw.txt'), true);
  t.is(checked.result('raw').status, 'skipped');
  t.is(await host.sh('ls /srv/n6/raw.txt 2>/dev/null || echo absent'), 'absent\n', '--check left the host alone');
  const ran = await play('raw', rawPlay('raw.txt'));
  t.like(ran.result('raw'), { status: 'changed', rc: 0, stdout: '', stderr: 'made\n', stderr_lines: ['made'] });
  t.is(await host.sh('cat /srv/n6/raw.txt'), 'hi\n');
  const failed = await play('raw-fail', `
- hosts: all
  gather_facts: false
  tasks:
    - name: raw
      raw: echo out; exit 3
      ignore_errors: true
`);
  t.like(failed.result('raw'), { status: 'failed', rc: 3, stdout: 'out\n', msg: 'non-zero return code' });

  await host.sh(`ln -sfn '${HOSTILE.replace(/'/g, `'\\''`)}' /srv/n6/evil`);
  for (const check of [false, true]) {
    const reads = await play(`reads-${check}`, READS, check);
    t.deepEqual(reads.summary.stats[hostName], { ok: 6, changed: 0, unreachable: 0, failed: 0, skipped: 0, rescued: 0, ignored: 0 });
    t.is(reads.result('stat link').stat.lnk_target, HOSTILE, 'a symlink target that looks like a template is returned as written');
    t.is(reads.result('stat link').stat.lnk_source, HOSTILE);
    t.deepEqual(reads.result('stat missing').stat, { exists: false });
    // The run lock's exec carries the play's first reads: all five in that one exec.
    t.is(reads.summary.execs[hostName], 1, `execs of a play of reads (check=${check})`);
  }
});

test.serial('fetch: the host file lands under dest/<host>/<src>, once; flat; missing ignored or failing; skipped under --check', async (t) => {
  t.timeout(3 * 60_000);
  if (!host) return t.fail('the lab host of the first test is not up');
  const hostName = host.state.hosts[0].name;
  await host.sh("mkdir -p /srv/n6f && printf 'fetched\\n' > /srv/n6f/a.conf && ln -sfn a.conf /srv/n6f/link");
  const yaml = `
- hosts: all
  gather_facts: false
  tasks:
    - name: fetch
      fetch: { src: /srv/n6f/a.conf, dest: out }
    - name: flat
      fetch: { src: /srv/n6f/link, dest: flat/, flat: true }
    - name: missing ignored
      fetch: { src: /srv/n6f/none, dest: out, fail_on_missing: false }
`;
  const checked = await play('fetch-check', yaml, true);
  t.is(checked.result('fetch').status, 'skipped');
  t.throws(() => statSync(path.join(dir, 'out')), undefined, '--check wrote nothing on the controller');
  const first = await play('fetch', yaml);
  const copy = path.join(dir, 'out', hostName, 'srv/n6f/a.conf');
  t.like(first.result('fetch'), { status: 'changed', dest: copy, checksum: '62d407d0aa7cefbb1f030a4ab39ae580a0c4bcec', remote_checksum: '62d407d0aa7cefbb1f030a4ab39ae580a0c4bcec', remote_md5sum: null });
  t.is(readFileSync(copy, 'utf8'), 'fetched\n');
  t.is(statSync(copy).mode & 0o777, 0o644);
  t.is(readFileSync(path.join(dir, 'flat', 'link'), 'utf8'), 'fetched\n', 'flat: dest/<basename>, the link followed');
  t.like(first.result('missing ignored'), { status: 'ok', msg: 'the remote file does not exist, not transferring, ignored' });
  const again = await play('fetch-again', yaml);
  t.deepEqual(again.summary.stats[hostName], { ok: 3, changed: 0, unreachable: 0, failed: 0, skipped: 0, rescued: 0, ignored: 0 });
  await host.sh("printf 'changed\\n' > /srv/n6f/a.conf");
  t.is((await play('fetch-drift', yaml)).result('fetch').status, 'changed');
  t.is(readFileSync(copy, 'utf8'), 'changed\n');
  await t.throwsAsync(play('fetch-missing', yaml.replace('fail_on_missing: false', 'fail_on_missing: true')), { message: /the remote file does not exist/ });
});
