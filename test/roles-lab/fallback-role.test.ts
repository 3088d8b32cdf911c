// A role of our own run through the Ansible-module fallback on a real lab host, exercising what
// linux-system-roles' firewall and network roles need from it (scripts/real-roles.sh runs those):
// library/ modules importing the role's module_utils, an include named as tasks/x.yml, facts a
// module returns (ansible_facts.X and X, kept across plays and fact gathering), check mode and
// diff (the modules' own), no_log, converge then changed=0 with nothing uploaded, and a play whose
// only fallback task is skipped starting no worker at all.
import test from 'ava';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fallbackStats } from '../../src/fallback/worker.js';
import type { RunEvent } from '../../src/engine/runner/events.js';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { labPlay, type PlayRun } from '../helpers/lab-play.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-rrfb-'));
cpSync(path.join(root, 'test/fixtures/fallback-role/roles'), path.join(dir, 'roles'), { recursive: true });
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const SITE = `
- hosts: all
  gather_facts: false
  roles: [hwconf]
- hosts: all
  gather_facts: true
  tasks:
    - name: facts survive the next play's gathering
      assert:
        that:
          - ansible_facts.hwconf.path == '/etc/hwconf/app.conf'
          - ansible_facts.hwconf_seen is defined
          - ansible_facts.distribution == 'Debian'
`;

const hostResult = (r: PlayRun, task: string) => {
  const e = r.events.find((x): x is Extract<RunEvent, { type: 'host_result' }> => x.type === 'host_result' && x.task.name === task);
  return e?.result;
};

test.serial('a role of library/ modules with module_utils converges, re-runs with changed=0 and no upload, keeps its facts, honours --check/--diff and no_log', async (t) => {
  t.timeout(4 * 60_000);
  host ??= await labHost(LAB);
  const play = labPlay(host, dir);
  await host.sh('rm -rf /etc/hwconf ~/.cache/hostwire');
  const before = { ...fallbackStats };

  const first = await play('site', SITE);
  t.is(first.changed, 1);
  t.is(hostResult(first, 'settings file')?.status, 'changed');
  t.is(await host.sh('cat /etc/hwconf/app.conf; stat -c %a /etc/hwconf/app.conf'), 'listen=0.0.0.0:8080\nworkers=4\n644\n');
  t.is(fallbackStats.uploads - before.uploads, 1, 'the payload (both modules and their module_utils) went up once');
  t.is(fallbackStats.workersStarted - before.workersStarted, 1, 'one worker for the host');

  const second = await play('site', SITE);
  t.is(second.changed, 0);
  t.is(fallbackStats.uploads - before.uploads, 1, 'the re-run uploaded nothing');

  await host.sh("sed -i 's/workers=4/workers=9/' /etc/hwconf/app.conf");
  const checked = await play('site', SITE.split('- hosts: all').slice(0, 2).join('- hosts: all'), { check: true, diff: true });
  t.is(hostResult(checked, 'settings file')?.status, 'changed');
  t.deepEqual(hostResult(checked, 'settings file')?.diff, [{ header: '/etc/hwconf/app.conf -> /etc/hwconf/app.conf', before: 'listen=0.0.0.0:8080\nworkers=9\n', after: 'listen=0.0.0.0:8080\nworkers=4\n' }]);
  t.regex(await host.sh('cat /etc/hwconf/app.conf'), /workers=9/, '--check left the host alone');
  t.is((await play('site', SITE)).changed, 1, 'a normal run fixes the drift');

  const secret = await play('secret', '- hosts: all\n  gather_facts: false\n  roles: [{ role: hwconf, hwconf_token: s3cret-t0ken }]\n');
  const r = hostResult(secret, 'settings file');
  t.is(r?.status, 'changed');
  t.true(r?.noLog, 'no_log (templated from the role) marks the result');
  t.is(r?.result?.no_log_seen, true, 'and the module was told');
  t.is(await host.sh('grep -c s3cret-t0ken /etc/hwconf/app.conf'), '1\n');
});

test.serial('a play whose only fallback task is skipped starts no worker and uploads nothing', async (t) => {
  t.timeout(3 * 60_000);
  host ??= await labHost(LAB);
  const play = labPlay(host, dir);
  await host.sh('rm -rf ~/.cache/hostwire');
  const before = { ...fallbackStats };
  const r = await play('skipped', `
- hosts: all
  gather_facts: false
  vars: { run_it: false }
  roles:
    - { role: hwconf, when: run_it }
`);
  t.is(hostResult(r, 'configure')?.status, 'skipped');
  t.is(fallbackStats.workersStarted - before.workersStarted, 0);
  t.is(fallbackStats.uploads - before.uploads, 0);
  t.is(await host.sh('test -e ~/.cache/hostwire && echo cache || echo none'), 'none\n');
});
