// get_url on a real lab host, from a web server inside the lab (python3 -m http.server on the host's
// loopback, so nothing leaves the lab): converge with mode, again changed=0 (304 Not Modified), a
// checksum that matches spares the download, --check predicts without writing, a failing URL fails
// with Ansible's words. Keys and values as ansible-core 2.14's get_url registered them on a lab host.
import test from 'ava';
import { convergePlay, labModuleTest } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const lab = labModuleTest(testLabName(import.meta.url));

const SHA256 = 'a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447';
const BASE = 'http://127.0.0.1:8088';
const PLAY = `
- hosts: all
  gather_facts: false
  tasks:
    - name: plain
      get_url: { url: '${BASE}/hello.txt', dest: /srv/gu/h.txt, mode: '0640' }
    - name: checksum
      ansible.builtin.get_url: { url: '${BASE}/hello.txt', dest: /srv/gu/, checksum: 'sha256:${BASE}/SHA256SUMS' }
    - name: pinned
      get_url: { url: '${BASE}/hello.txt', dest: /srv/gu/p.txt, checksum: 'sha256:${SHA256}' }
`;

test('get_url on a lab host: converge, 304 on the second run, checksum spares the download, --check writes nothing', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  await host.sh(`mkdir -p /srv/www /srv/gu && printf 'hello world\\n' > /srv/www/hello.txt && cd /srv/www && sha256sum hello.txt > SHA256SUMS && systemd-run -q --unit=mfweb python3 -m http.server 8088 --bind 127.0.0.1 --directory /srv/www && for i in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('${BASE}/')" 2>/dev/null && break; sleep 0.1; done`);

  const { checked, first, again } = await convergePlay(t, play, 'converge', PLAY, { state: () => host.sh('ls -a /srv/gu'), checkAgain: false });
  t.like(checked!.result('plain'), { outcome: 'changed', checksum_dest: null, checksum_src: 'da39a3ee5e6b4b0d3255bfef95601890afd80709', msg: 'OK (12 bytes)' }, 'HEAD: an empty body, as Ansible');
  t.like(first.result('plain'), {
    outcome: 'changed', changed: true, checksum_dest: null, checksum_src: '22596363b3de40b06f981fb85d82312e8c0ed511', dest: '/srv/gu/h.txt', elapsed: 0,
    md5sum: '6f5902ac237024bdd0c176cb93063dc4', mode: '0640', msg: 'OK (12 bytes)', owner: 'root', group: 'root', size: 12, state: 'file', status_code: 200, url: `${BASE}/hello.txt`,
  });
  t.like(first.result('checksum'), { outcome: 'changed', dest: '/srv/gu/hello.txt' });
  t.is(await host.sh('stat -c %a:%s /srv/gu/h.txt; cat /srv/gu/hello.txt; ls -a /srv/gu'), '640:12\nhello world\n.\n..\nh.txt\nhello.txt\np.txt\n', 'no temp file left');

  t.like(again.result('plain'), { outcome: 'ok', msg: 'HTTP Error 304: Not Modified', status_code: 304, mode: '0640' });
  t.like(again.result('pinned'), { outcome: 'ok', msg: 'file already exists', checksum_src: null });
  // --check into a dest folder sends HEAD with no If-Modified-Since: the empty body's sha1 differs, so
  // get_url.py says changed there even on a converged host (ansible-playbook --check does the same).
  const checkAgain = await play('check-again', PLAY, { check: true });
  t.is(checkAgain.changed, 1);
  t.like(checkAgain.result('checksum'), { outcome: 'changed', checksum_src: 'da39a3ee5e6b4b0d3255bfef95601890afd80709', mode: '0644', state: 'file' });
  t.like(checkAgain.result('plain'), { outcome: 'ok', status_code: 304 });

  await host.sh('chmod 0600 /srv/gu/p.txt');
  t.like((await play('attrs', PLAY.replace("checksum: 'sha256:" + SHA256 + "'", `checksum: 'sha256:${SHA256}', mode: '0644'`))).result('pinned'), { outcome: 'changed', msg: 'file already exists but file attributes changed', mode: '0644' });

  const failing = await play('fail', `
- hosts: all
  gather_facts: false
  tasks:
    - name: missing
      get_url: { url: '${BASE}/none', dest: /srv/gu/n.txt }
      ignore_errors: true
    - name: bad
      get_url: { url: '${BASE}/hello.txt', dest: /srv/gu/bad.txt, checksum: 'sha256:00aa' }
      ignore_errors: true
`);
  t.like(failing.result('missing'), { outcome: 'failed', msg: 'Request failed', response: 'HTTP Error 404: File not found', status_code: 404 });
  t.like(failing.result('bad'), { outcome: 'failed', changed: true, msg: `The checksum for /srv/gu/bad.txt did not match 00aa; it was ${SHA256}.` });
  t.is(await host.sh('ls /srv/gu/bad.txt 2>/dev/null || echo gone'), 'gone\n', 'a download that fails its checksum is removed');
});
