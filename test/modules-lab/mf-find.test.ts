// find on a real lab host: the registered result in Ansible's shape (its fields and order as
// ansible-core 2.14 registered them for the same tree on a lab host: see src/modules/find/cases), a
// file name that looks like a template or holds a newline comes back as written, the same answer under
// --check, and a play of finds without contains costs one exec (the batched read).
import test from 'ava';
import { labModuleTest } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const lab = labModuleTest(testLabName(import.meta.url));

const HOSTILE = "{{ lookup('pipe', 'id') }}.log";

const PLAY = `
- hosts: all
  gather_facts: false
  tasks:
    - name: logs
      ansible.builtin.find: { paths: /srv/mf, patterns: '*.log', recurse: true }
      register: logs
    - name: dirs
      find: path=/srv/mf file_type=directory
      register: dirs
    - name: missing
      find: { paths: [/srv/mf/none, /srv/mf], file_type: any, hidden: true }
      register: mixed
    - name: check
      assert:
        that:
          - logs.matched == 4 and logs.examined == 7 and logs.msg == 'All paths examined'
          - dirs.files | map(attribute='path') | list == ['/srv/mf/sub']
          - mixed.skipped_paths['/srv/mf/none'] is defined
          - mixed.msg == 'Not all paths examined, check warnings for details'
`;

test('find on a lab host: Ansible\'s result shape, host names as data, the same under --check, one exec', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  const name = host.state.hosts[0]!.name;
  const q = HOSTILE.replace(/'/g, `'\\''`);
  await host.sh(`mkdir -p /srv/mf/sub /srv/mf/.h && printf 'a\\n' > /srv/mf/a.log && printf 'b\\n' > /srv/mf/sub/b.log && printf x > '/srv/mf/${q}' && printf y > '/srv/mf/new
line.txt' && touch /srv/mf/.h/c.log && chmod 0640 /srv/mf/a.log`);
  for (const check of [false, true]) {
    const r = await play(`find-${check}`, PLAY, { check });
    t.like(r.summary.stats[name], { ok: 4, changed: 0, failed: 0 }, `check=${check}`);
    t.is(r.summary.execs[name], 1, 'one exec per host: the walks ride the batched read');
    const logs = r.result('logs');
    const a = logs.files.find((f: { path: string }) => f.path === '/srv/mf/a.log');
    t.deepEqual(Object.keys(a), ['path', 'mode', 'isdir', 'ischr', 'isblk', 'isreg', 'isfifo', 'islnk', 'issock', 'uid', 'gid', 'size', 'inode', 'dev', 'nlink', 'atime', 'mtime', 'ctime', 'gr_name', 'pw_name', 'wusr', 'rusr', 'xusr', 'wgrp', 'rgrp', 'xgrp', 'woth', 'roth', 'xoth', 'isuid', 'isgid']);
    t.like(a, { mode: '0640', isreg: true, size: 2, pw_name: 'root', gr_name: 'root', rgrp: true, roth: false });
    const paths = logs.files.map((f: { path: string }) => f.path).sort();
    // hidden: only a name starting with a dot is left out, not what lies in a hidden folder (as find.py).
    t.deepEqual(paths, ['/srv/mf/a.log', '/srv/mf/sub/b.log', '/srv/mf/.h/c.log', `/srv/mf/${HOSTILE}`].sort(), 'a name that looks like a template is returned as written');
    const mixed = r.result('missing');
    t.true(mixed.files.some((f: { path: string }) => f.path === '/srv/mf/new\nline.txt'), 'a name with a newline is one entry');
    t.deepEqual(mixed.skipped_paths, { '/srv/mf/none': "'/srv/mf/none' is not a directory" });
    t.deepEqual(mixed.warnings, ["Skipped '/srv/mf/none' path due to this access issue: '/srv/mf/none' is not a directory\n"]);
  }
});
