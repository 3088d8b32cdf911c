// unarchive on a real lab host: a controller archive (streamed once over the connection) and a
// remote_src one converge, re-run with changed=0, --check changes nothing; a file touched or removed
// by hand is seen by --check and left, then unpacked again; the registered result has the keys
// ansible-core 2.14's unarchive registered for the same task on a lab host (cases/first.json); an
// archive with a member outside dest is refused and writes nothing; no temp folder is left behind.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { labPlay } from '../helpers/lab-play.js';
import { convergePlay } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-s8xunarc-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ODD = "{{ x }} $(id) 'q'.txt";

/** app.tar.gz (a file whose name looks like a template and a command), evil.tar (a link to /etc, then a file written through it). */
function makeArchives(): void {
  const src = path.join(dir, 'src');
  mkdirSync(path.join(src, 'app/conf'), { recursive: true });
  writeFileSync(path.join(src, 'app/conf/app.ini'), 'name=demo\n');
  writeFileSync(path.join(src, 'app', ODD), 'odd\n');
  symlinkSync('conf/app.ini', path.join(src, 'app/current.ini'));
  execFileSync('tar', ['-czf', path.join(dir, 'app.tar.gz'), '-C', src, 'app']);
  execFileSync('tar', ['-cf', path.join(dir, 'app.tar'), '-C', src, 'app']);
  const evil = path.join(dir, 'evil');
  mkdirSync(evil);
  symlinkSync('/etc', path.join(evil, 'etcl'));
  execFileSync('tar', ['-cf', path.join(dir, 'evil.tar'), '-C', evil, 'etcl']);
  rmSync(path.join(evil, 'etcl'));
  mkdirSync(path.join(evil, 'etcl'));
  writeFileSync(path.join(evil, 'etcl/s8x-planted'), 'x\n');
  execFileSync('tar', ['-rf', path.join(dir, 'evil.tar'), '-C', evil, 'etcl/s8x-planted']);
}

const PLAY = `
- hosts: all
  gather_facts: false
  tasks:
    - name: app
      ansible.builtin.unarchive: { src: ${dir}/app.tar.gz, dest: /srv/s8un, list_files: true }
      register: r
    - name: remote
      unarchive: { src: /srv/s8in/app.tar, dest: /srv/s8rem, remote_src: true, extra_opts: [--strip-components=1], exclude: [conf], mode: '0750', owner: nobody }
`;

const EVIL = `
- hosts: all
  gather_facts: false
  tasks:
    - name: evil
      unarchive: { src: ${dir}/evil.tar, dest: /srv/s8evil }
`;

test('unarchive on a lab host: converge, changed=0, --check changes nothing, drift, Ansible\'s keys, hostile archives refused', async (t) => {
  t.timeout(4 * 60_000);
  makeArchives();
  host = await labHost(LAB);
  const h = host;
  const play = labPlay(h, dir);
  await h.sh('mkdir -p /srv/s8un /srv/s8rem /srv/s8in /srv/s8evil');
  await h.transport.writeFile('/srv/s8in/app.tar', execFileSync('cat', [path.join(dir, 'app.tar')]));
  const read = () => h.sh("cd /srv && find s8un s8rem -printf '%p %m %u %T@ %l\\n' | sort; ls /tmp | grep -c hostwire-unarchive || true");
  const { first } = await convergePlay(t, play, 'unarchive', PLAY, { state: read });

  const app = first.result('app');
  t.deepEqual(Object.keys(app).filter((k) => !['outcome', 'msg', 'failed'].includes(k)).sort(),
    ['changed', 'dest', 'extract_results', 'files', 'gid', 'group', 'handler', 'mode', 'owner', 'size', 'src', 'state', 'uid'], 'the keys ansible registered (cases/first.json)');
  t.like(app, { handler: 'TgzArchive', dest: '/srv/s8un', state: 'directory', extract_results: { rc: 0, err: '' } });
  t.deepEqual([...app.files].sort(), ['app/', 'app/conf/', 'app/conf/app.ini', 'app/current.ini', `app/${ODD}`].sort());
  t.is(await h.sh(`cat '/srv/s8un/app/{{ x }} $(id) '\\''q'\\''.txt'; readlink /srv/s8un/app/current.ini`), 'odd\nconf/app.ini\n', 'the name written as in the archive');
  t.is(await h.sh('cd /srv/s8rem && stat -c "%n %a %U" . current.ini "{{ x }} \\$(id) \'q\'.txt"; ls'), `. 750 nobody\ncurrent.ini 777 nobody\n${ODD} 750 nobody\ncurrent.ini\n${ODD}\n`);

  await h.sh('touch /srv/s8un/app/conf/app.ini && rm /srv/s8un/app/current.ini');
  const drifted = await read();
  t.like((await play('drift-check', PLAY, { check: true })).result('app'), { outcome: 'changed' });
  t.is(await read(), drifted, '--check left the drift');
  t.like((await play('fix', PLAY)).result('app'), { outcome: 'changed' });
  t.is(await h.sh('readlink /srv/s8un/app/current.ini'), 'conf/app.ini\n');

  const evil = await play('evil', EVIL, { mayFail: true });
  t.like(evil.result('evil'), { outcome: 'failed' });
  t.regex(evil.result('evil').msg, /refusing to unpack .*symbolic link "etcl" points to the absolute path "\/etc"/);
  t.is(await h.sh('ls -A /srv/s8evil; test -e /etc/s8x-planted && echo planted || echo clean; ls /tmp | grep -c hostwire-unarchive || true'), 'clean\n0\n');
});
