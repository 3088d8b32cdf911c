// apt on a real lab host, offline: the test builds tiny .deb packages and a local apt repository on the
// host (fixtures/apt/local-repo.sh) and points apt at it alone. Converge (pinned version, wildcard names,
// install_recommends, a .deb) through the shared play cycle: --check --diff predicting with apt-get
// --simulate without touching dpkg, a run, a no-op second run; latest, absent + purge + autoremove, and Ansible's refusals.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { labPlay, type LabPlay } from '../helpers/lab-play.js';
import { convergePlay } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-s8papt-'));
const repoScript = readFileSync(fileURLToPath(new URL('../../../test/modules-lab/fixtures/apt/local-repo.sh', import.meta.url)), 'utf8');
let host: LabHost | undefined;
let play: LabPlay;

test.before(async () => {
  host = await labHost(LAB);
  play = labPlay(host, dir);
  await host.sh(repoScript);
  await host.sh('apt-get update -q >/dev/null');
});

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Every hwp- package dpkg knows of (installed, or removed with files left), as "name state version".
const dpkg = () => host!.sh("dpkg-query -W -f='${Package} ${db:Status-Abbrev}${Version}\\n' 'hwp-*' 2>/dev/null | grep -v '^[^ ]* un' || true");

const INSTALL = `
- hosts: all
  gather_facts: false
  tasks:
    - name: pinned and wildcard
      apt: { name: [hwp-a=1.0, 'hwp-[bc]'], install_recommends: true, update_cache: true, cache_valid_time: 3600 }
    - name: deb
      apt: { deb: /srv/hwdebs/hwp-local_1.0_all.deb }
`;

test.serial('apt installs a pinned version, wildcard names and a .deb; --check --diff predicts; again changed=0', async (t) => {
  t.timeout(4 * 60_000);
  const { checked: maybeChecked, first } = await convergePlay(t, play, 'install', INSTALL, { state: dpkg, diff: true });
  const checked = maybeChecked!; // --check ran first (convergePlay's default)
  const predicted = checked.result('pinned and wildcard');
  t.regex(predicted.stdout, /Inst hwp-a \(1\.0 [^]*Inst hwp-c \(1\.0 /, 'apt-get --simulate said what it would install');
  t.deepEqual(predicted.diff, [{ header: 'install hwp-a=1.0, hwp-b=1.0, hwp-c=1.0', before: 'hwp-a: absent\nhwp-b: absent\nhwp-c: absent\n', after: 'hwp-a: 1.0\nhwp-b: 1.0\nhwp-c: 1.0\n' }]);
  t.like(checked.result('deb'), { outcome: 'changed' });
  t.like(first.result('pinned and wildcard'), { outcome: 'changed', cache_updated: false });
  // The lab's apt installs no recommendations by default (mmdebstrap's apt.conf): install_recommends overrides it.
  t.is(await dpkg(), 'hwp-a ii 1.0\nhwp-b ii 1.0\nhwp-c ii 1.0\nhwp-dep ii 1.0\nhwp-local ii 1.0\nhwp-rec ii 1.0\n');
  t.is(await host!.sh('apt-mark showmanual hwp-a hwp-b hwp-c hwp-dep'), 'hwp-a\nhwp-b\nhwp-c\n', 'asked-for packages marked manual, as the module marks them');
});

const LATEST = `
- hosts: all
  gather_facts: false
  tasks:
    - { name: latest, apt: { name: hwp-a, state: latest } }
`;

test.serial('apt latest upgrades to the candidate; a pinned wildcard no longer installed is refused', async (t) => {
  t.timeout(3 * 60_000);
  await host!.sh('apt-get install -y -q hwp-a=1.0 >/dev/null 2>&1');
  const read = () => host!.sh("dpkg-query -W -f='${Version}' hwp-a");
  const { first } = await convergePlay(t, play, 'latest', LATEST, { state: read });
  t.is(await read(), '2.0');
  t.like(first.result('latest'), { outcome: 'changed', cache_updated: false });
  const down = await play('down', `
- hosts: all
  gather_facts: false
  tasks:
    - { name: nine, apt: { name: 'hwp-a=9.*' }, ignore_errors: true }
    - { name: nope, apt: { name: hwp-nope }, ignore_errors: true }
    - { name: downgrade, apt: { name: hwp-a=1.0 }, ignore_errors: true }
`, { check: true });
  t.like(down.result('nine'), { outcome: 'failed', msg: 'no available installation candidate for hwp-a=9.*', cache_updated: false });
  t.like(down.result('nope'), { outcome: 'failed', msg: "No package matching 'hwp-nope' is available" });
  t.like(down.result('downgrade'), { outcome: 'failed' });
  t.regex(down.result('downgrade').msg, /^'apt-get -y .* --simulate install -- hwp-a=1\.0' failed: E: Packages were downgraded/);
  t.is(await read(), '2.0', 'the simulated downgrade touched nothing');
});

const REMOVE = `
- hosts: all
  gather_facts: false
  tasks:
    - { name: autoremove, apt: { autoremove: true } }
    - { name: c gone, apt: { name: hwp-c, state: absent, autoremove: true } }
    - { name: conf purged, apt: { name: hwp-conf, state: absent, purge: true } }
`;

test.serial('apt absent with autoremove and purge (a conffile left behind), autoremove alone; again changed=0', async (t) => {
  t.timeout(3 * 60_000);
  // hwp-rec comes in as hwp-b's recommendation (auto) and is left unneeded when hwp-b goes.
  await host!.sh('apt-get install -y -q -o APT::Install-Recommends=yes hwp-c hwp-conf hwp-b >/dev/null 2>&1 && apt-get remove -y -q hwp-conf hwp-b >/dev/null 2>&1');
  const read = async () => `${await dpkg()}${await host!.sh('ls /etc/hwp-conf.conf 2>&1 || true')}`;
  t.regex(await read(), /hwp-conf rc 1\.0/, 'hwp-conf removed with its conffile left');
  const { first } = await convergePlay(t, play, 'remove', REMOVE, { state: read });
  t.like(first.result('c gone'), { outcome: 'changed' }, 'hwp-c and, with --auto-remove, hwp-dep');
  t.like(first.result('conf purged'), { outcome: 'changed' });
  t.like(first.result('autoremove'), { outcome: 'changed' }, 'hwp-rec, installed as a recommendation and now auto, is removed');
  const left = await read();
  t.notRegex(left, /hwp-(c|dep|conf|rec) /);
  t.regex(left, /No such file/, 'the conffile purged');
});
