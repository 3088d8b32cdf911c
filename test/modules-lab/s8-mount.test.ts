// ansible.posix.mount on a real lab host (tmpfs mounts inside the nspawn container): mounted with a
// space in the path (fstab's \040), options changed (fstab rewritten atomically, mode and the other
// lines kept, remounted), unmounted, absent, ephemeral, a failed mount that puts the old fstab back,
// and fields with control characters refused. --check changes nothing; second runs report changed=0.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labHost, type LabHost } from '../helpers/lab-host.js';
import { labPlay, type LabPlay } from '../helpers/lab-play.js';
import { convergePlay } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const dir = mkdtempSync(path.join(tmpdir(), 'hw-s8pmount-'));
let host: LabHost | undefined;
let play: LabPlay;
const FSTAB = '# hostwire test\n/dev/four /mnt/four ext4 defaults\n/dev/swap1 none swap sw 0 0\n';

test.before(async () => {
  host = await labHost(LAB);
  play = labPlay(host, dir);
  await host.sh(`printf '%s' '${FSTAB}' > /etc/fstab && chmod 0640 /etc/fstab`);
});

test.after.always(async () => {
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const read = async () => `${await host!.sh('stat -c "%a %U" /etc/fstab; cat /etc/fstab')}${await host!.sh("findmnt -rn -o TARGET,SOURCE,FSTYPE,OPTIONS | grep '^/mnt/s8' || true")}`;
const task = (args: string) => `
- hosts: all
  gather_facts: false
  tasks:
    - name: mount
      ansible.posix.mount: ${args}
      register: r
`;
const MOUNTED = (size: string) => task(`{ path: /mnt/s8 m, src: tmpfs, fstype: tmpfs, opts: 'size=${size}', state: mounted }`);

test.serial('mounted: --check predicts, a run adds the \\040-escaped entry and mounts, again changed=0; new opts remount', async (t) => {
  t.timeout(3 * 60_000);
  const { checked: maybeChecked } = await convergePlay(t, play, 'mounted', MOUNTED('8m'), { state: read, diff: true });
  const checked = maybeChecked!; // --check ran first (convergePlay's default)
  t.deepEqual(checked.result('mount').diff[0], { header: 'set /mnt/s8 m in /etc/fstab', before: FSTAB, after: `${FSTAB}tmpfs /mnt/s8\\040m tmpfs size=8m 0 0\n` });
  t.is(await read(), `640 root\n${FSTAB}tmpfs /mnt/s8\\040m tmpfs size=8m 0 0\n/mnt/s8\\x20m tmpfs tmpfs rw,relatime,size=8192k\n`, 'mode, owner and the other lines kept');
  const resized = await convergePlay(t, play, 'resized', MOUNTED('16m'), { state: read });
  t.like(resized.first.result('mount'), { outcome: 'changed', changes: ['set /mnt/s8 m in /etc/fstab', 'remount /mnt/s8 m'] });
  t.regex(await read(), /tmpfs \/mnt\/s8\\040m tmpfs size=16m 0 0\n\/mnt\/s8\\x20m tmpfs tmpfs rw,relatime,size=16384k\n$/);
});

test.serial('unmounted keeps the entry; absent removes entry, mount and directory; both changed=0 again', async (t) => {
  t.timeout(3 * 60_000);
  await convergePlay(t, play, 'unmounted', task('{ path: /mnt/s8 m, state: unmounted }'), { state: read });
  t.regex(await read(), /tmpfs \/mnt\/s8\\040m tmpfs size=16m 0 0\n$/, 'entry kept, nothing mounted');
  await host!.sh("mount '/mnt/s8 m'");
  await convergePlay(t, play, 'absent', task('{ path: /mnt/s8 m, state: absent }'), { state: read });
  t.is(await read(), `640 root\n${FSTAB}`);
  t.is(await host!.sh("ls -d '/mnt/s8 m' 2>/dev/null || echo gone"), 'gone\n');
});

test.serial('ephemeral mounts without fstab; a second source on it is refused', async (t) => {
  t.timeout(3 * 60_000);
  const before = await read();
  await play('eph-check', task('{ path: /mnt/s8e, src: tmpfs, fstype: tmpfs, opts: size=4m, state: ephemeral }'), { check: true });
  t.is(await read(), before, '--check mounted nothing');
  const run = await play('eph', task('{ path: /mnt/s8e, src: tmpfs, fstype: tmpfs, opts: size=4m, state: ephemeral }'));
  t.is(run.changed, 1);
  t.is(await read(), `${before}/mnt/s8e tmpfs tmpfs rw,relatime,size=4096k\n`, 'mounted, fstab untouched');
  const other = await play('eph-other', task('{ path: /mnt/s8e, src: /srv, fstype: none, opts: bind, state: ephemeral }'), { mayFail: true });
  t.like(other.result('mount'), { outcome: 'failed' });
  t.regex(other.result('mount').msg, /^Ephemeral mount point is already mounted with a different source/);
  await host!.sh('umount /mnt/s8e && rmdir /mnt/s8e');
});

test.serial('a mount that fails puts the old fstab back and removes the directory it made', async (t) => {
  t.timeout(2 * 60_000);
  const before = await read();
  const run = await play('bad', task('{ path: /mnt/s8bad, src: /dev/s8-nonexistent, fstype: ext4, state: mounted }'), { mayFail: true });
  t.like(run.result('mount'), { outcome: 'failed' });
  t.regex(run.result('mount').msg, /^Error mounting \/mnt\/s8bad: mount: \/mnt\/s8bad: special device \/dev\/s8-nonexistent does not exist/);
  t.is(await read(), before);
  t.is(await host!.sh('ls -d /mnt/s8bad 2>/dev/null || echo gone'), 'gone\n');
});

test.serial('a field with a tab or newline is refused before anything runs', async (t) => {
  const before = await read();
  const e = await t.throwsAsync(play('tab', task('{ path: /mnt/s8t, src: "a\\tb", fstype: ext4, state: present }')));
  t.regex(e?.message ?? '', /tab\.yml:\d+:\d+: .*argument 'src': expected a device, label or source path without control characters/);
  t.is(await read(), before);
});
