// user on a real lab host: an account with groups, password hash, expiry, a hostile comment and an ssh
// key converges, re-runs with changed=0, --check changes nothing; drift made by hand is seen by --check
// and left, then fixed; the registered results have the keys ansible-core 2.14's user registered for
// the same tasks on a lab host (src/modules/user/cases/*.json, "recorded"); absent with remove removes.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { labPlay } from '../helpers/lab-play.js';
import { convergePlay } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-s8xuser-'));
let host: LabHost | undefined;

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const HASH = '$6$s8saltone$CsnGPC4b2HS80k2Ww2w/6/zACnKALyHYVoglK4I3Gpq/8f9B165..BpGye6ezL8unkf2MVe3zCR3vicdldN38.';
const COMMENT = "x $(touch /tmp/pwned) ' \\\" {{ y }}";

const PLAY = (state: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: deploy
      ansible.builtin.user:
        name: s8dep
        uid: 4901
        group: users
        groups: [adm, audio]
        shell: /bin/bash
        comment: !unsafe '${COMMENT.replace(/'/g, "''")}'
        password: '${HASH}'
        expires: 1900000000
        generate_ssh_key: true
        ssh_key_type: ed25519
        state: ${state}
        remove: true
      register: r
    - name: svc
      user: name=s8svc system=yes create_home=no state=${state}
`;

const readUsers = (h: LabHost) => () =>
  h.sh("getent passwd s8dep s8svc; getent shadow s8dep | cut -d: -f2,8; id -Gn s8dep; ls -a /home/s8dep/.ssh 2>/dev/null; true");

test('user on a lab host: converge, changed=0, --check changes nothing, drift seen and fixed, Ansible\'s keys, absent', async (t) => {
  t.timeout(4 * 60_000);
  host = await labHost(LAB);
  const play = labPlay(host, dir);
  const read = readUsers(host);
  const { first, again } = await convergePlay(t, play, 'present', PLAY('present'), { state: read });

  const made = first.result('deploy');
  t.deepEqual(Object.keys(made).filter((k) => k !== 'outcome' && k !== 'msg' && k !== 'failed').sort(),
    ['changed', 'comment', 'create_home', 'group', 'groups', 'home', 'name', 'password', 'shell', 'ssh_fingerprint', 'ssh_key_file', 'ssh_public_key', 'state', 'system', 'uid'], 'the keys ansible registered (cases/add-full.json)');
  t.like(made, { uid: 4901, group: 100, groups: 'adm,audio', comment: COMMENT, home: '/home/s8dep', shell: '/bin/bash', password: 'NOT_LOGGING_PASSWORD', ssh_key_file: '/home/s8dep/.ssh/id_ed25519' });
  t.regex(made.ssh_fingerprint, new RegExp(`^256 SHA256:\\S+ ansible-generated on ${LAB}-1 \\(ED25519\\)$`));
  t.like(again.result('deploy'), { outcome: 'ok', append: false, move_home: false, warnings: ['Found existing ssh key private file "/home/s8dep/.ssh/id_ed25519", no force, so skipping ssh-keygen generation'] });
  const state = await read();
  t.true(state.includes(`s8dep:x:4901:100:${COMMENT}:/home/s8dep:/bin/bash\n`), 'the comment is stored as written, no shell read it');
  t.true(state.includes(`${HASH}:21990\n`), 'hash and expiry day 21990 (2030-03-17) as given');
  t.true(state.includes('users adm audio\n'));
  t.is(await host.sh('test -e /tmp/pwned && echo ran || echo no'), 'no\n', 'the comment never reached a shell');
  t.is(await host.sh('stat -c %a:%U /home/s8dep/.ssh /home/s8dep/.ssh/id_ed25519'), '700:s8dep\n600:s8dep\n');

  await host.sh('usermod -s /bin/sh -G adm s8dep');
  const drifted = await read();
  const checked = await play('drift-check', PLAY('present'), { check: true });
  t.like(checked.result('deploy'), { outcome: 'changed', shell: '/bin/sh', append: false });
  t.is(await read(), drifted, '--check left the drift');
  t.like((await play('fix', PLAY('present'))).result('deploy'), { outcome: 'changed', shell: '/bin/bash' });
  t.is(await read(), state);

  const gone = await play('absent', PLAY('absent'));
  t.like(gone.result('deploy'), { outcome: 'changed', name: 's8dep', state: 'absent', force: false, remove: true });
  t.is(await host.sh('getent passwd s8dep s8svc || echo none; ls /home/s8dep 2>&1 || true'), 'none\nls: cannot access \'/home/s8dep\': No such file or directory\n');
  t.is((await play('absent-again', PLAY('absent'))).changed, 0);
});
