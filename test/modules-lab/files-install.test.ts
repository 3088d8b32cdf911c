// File writes on a real lab host, driven through `hostwire run`:
// - a 40 MB copy re-run is a no-op that reads a digest, not the file (time and bytes measured);
// - owner/group values that chown would take as options are argument errors, nothing is chowned;
// - SIGKILL of the controller at random moments of a file-writing run, 20 times: every managed file
//   (large and small copy, template, lineinfile, ini_file, a sysctl.d file) is afterwards byte for
//   byte what it was before the killed run or what that run wanted, and no temp file outlives it.
import test from 'ava';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { labInventory } from '../../src/lab/index.js';
import type { Transport } from '../../src/transports/transport.js';
import { labHost, moduleRunner, type LabHost } from '../helpers/lab-host.js';
import { testLabName } from '../helpers/lab-name.js';

const LAB = testLabName(import.meta.url);
const KILLS = 20;
const BIG = 8 << 20;
const HUGE = 40 << 20;
const KILL_DEADLINE_MS = 200_000;
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const cli = path.join(repo, 'dist/src/cli/main.js');
const dir = mkdtempSync(path.join(tmpdir(), 'hw-h5files-'));
const inventory = path.join(dir, 'inventory.yml');
const MANAGED = ['/srv/h5/small.conf', '/srv/h5/t.conf', '/srv/h5/l.conf', '/srv/h5/i.ini', '/srv/h5/sysctl.d/90-h5.conf', '/srv/h5/big.bin'];
let lab: LabHost | undefined;

mkdirSync(path.join(dir, 'files'));
mkdirSync(path.join(dir, 'templates'));
for (const gen of ['a', 'b']) writeFileSync(path.join(dir, 'files', `big-${gen}.bin`), randomBytes(BIG));
writeFileSync(path.join(dir, 'files', 'huge.bin'), randomBytes(HUGE));
writeFileSync(path.join(dir, 'templates', 't.j2'), '# generation {{ gen }}\n{% for i in range(2000) %}line {{ i }} of {{ gen }}\n{% endfor %}');
const play = (tasks: Record<string, unknown>[]) => stringify([{ hosts: 'all', gather_facts: false, tasks }]);
writeFileSync(path.join(dir, 'write.yml'), play([
  { name: 'dir', file: { path: '/srv/h5', state: 'directory' } },
  { name: 'small', copy: { content: 'generation {{ gen }}\n', dest: '/srv/h5/small.conf' } },
  { name: 'template', template: { src: 't.j2', dest: '/srv/h5/t.conf' } },
  { name: 'lineinfile', lineinfile: { path: '/srv/h5/l.conf', regexp: '^gen=', line: 'gen={{ gen }}', create: true } },
  { name: 'ini_file', ini_file: { path: '/srv/h5/i.ini', section: 's', option: 'gen', value: '{{ gen }}' } },
  { name: 'sysctl', sysctl: { name: 'net.ipv4.ip_forward', value: "{{ '1' if gen == 'a' else '0' }}", sysctl_file: '/srv/h5/sysctl.d/90-h5.conf', reload: false } },
  // Last, so a kill during its upload leaves the others replaced and this one old.
  { name: 'big', copy: { src: 'big-{{ gen }}.bin', dest: '/srv/h5/big.bin', mode: '0640' } },
]));
writeFileSync(path.join(dir, 'huge.yml'), play([{ name: 'huge', copy: { src: 'huge.bin', dest: '/srv/h5-huge.bin' } }]));
writeFileSync(path.join(dir, 'tiny.yml'), play([{ name: 'tiny', copy: { content: 'x\n', dest: '/srv/h5-tiny.conf' } }]));
writeFileSync(path.join(dir, 'owner.yml'), play([
  { name: 'hostile owner', copy: { content: 'x\n', dest: '/srv/h5-owned.conf', owner: '--reference=/etc/shadow' } },
]));
writeFileSync(path.join(dir, 'group.yml'), play([{ name: 'hostile group', file: { path: '/srv/h5-owned.conf', group: '--reference=/etc/shadow' } }]));
writeFileSync(path.join(dir, 'ids.yml'), play([{ name: 'ids', copy: { content: 'x\n', dest: '/srv/h5-owned.conf', owner: 'nobody', group: 0 } }]));

interface Run { code: number | null; signal: NodeJS.Signals | null; out: string; ms: number; writeMs?: number }
/** SIGKILL `ms` after the start, or after the output first shows `mark`. */
interface Kill { ms: number; mark?: string }

const FIRST_WRITE = 'TASK [small]';

/** `hostwire run <playbook>`, SIGKILLed as `kill` says; writeMs: from the first write task to the end. */
function hostwire(playbook: string, extra: string[] = [], kill?: Kill): Promise<Run> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    let marked: number | undefined;
    const args = [cli, 'run', path.join(dir, playbook), '-i', inventory, '--no-live', ...extra];
    const child = spawn(process.execPath, args, { env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let killer: NodeJS.Timeout | undefined;
    const arm = () => (killer = setTimeout(() => child.kill('SIGKILL'), kill!.ms));
    const onData = (d: Buffer) => {
      out += d;
      if (marked === undefined && out.includes(FIRST_WRITE)) {
        marked = Date.now();
        if (kill?.mark) arm();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    if (kill && !kill.mark) arm();
    const backstop = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code, signal) => {
      clearTimeout(backstop);
      clearTimeout(killer);
      const end = Date.now();
      resolve({ code, signal, out, ms: end - t0, writeMs: marked && end - marked });
    });
  });
}
const write = (gen: string, kill?: Kill) => hostwire('write.yml', ['-e', `gen=${gen}`], kill);

const sh = async (cmd: string) => lab!.sh(cmd);
/** sha256 of each managed file ('absent' when missing). */
async function hashes(): Promise<string[]> {
  const out = await sh(MANAGED.map((f) => `if [ -f ${f} ]; then sha256sum < ${f} | cut -c1-64; else echo absent; fi`).join('; '));
  return out.trim().split('\n');
}
const temps = async () => (await sh('find /srv -name "*.hostwire-*" -print')).trim();

test.before(async () => {
  lab = await labHost(LAB);
  writeFileSync(inventory, stringify(labInventory(lab.state), { lineWidth: 0 }));
});

test.after.always(async () => {
  await lab?.close();
  rmSync(dir, { recursive: true, force: true });
});

test.serial('a 40 MB copy re-run is a no-op that reads its size and sha256, not the file', async (t) => {
  // A temp a killed write left behind (its shell died before its trap): the next write of the file removes it.
  const stale = '/srv/.h5-huge.bin.hostwire-0123456789ab.tmp';
  await sh(`printf partial > ${stale}`);
  const first = await hostwire('huge.yml');
  t.is(first.code, 0, first.out);
  t.regex(first.out, /changed=1/);
  t.is(await sh(`ls -a /srv | grep hostwire- || true`), '', 'the stale temp is gone');
  const again = await hostwire('huge.yml');
  t.is(again.code, 0, again.out);
  t.regex(again.out, /changed=0/);
  // The same run with a 2-byte file: what node's start, the connection and the lock cost anyway.
  t.is((await hostwire('tiny.yml')).code, 0);
  const tiny = await hostwire('tiny.yml');
  t.regex(tiny.out, /changed=0/);
  t.true(again.ms < tiny.ms + 4000, `40 MB no-op ${again.ms} ms vs 2-byte no-op ${tiny.ms} ms`);
  // In-process, with the bytes the host sent back counted (the CLI run above also pays node's start-up).
  const tr = lab!.transport;
  let received = 0;
  const counting: Transport = {
    name: tr.name, stats: tr.stats, connect: () => tr.connect(), close: () => tr.close(),
    writeFile: (p, c, o) => tr.writeFile(p, c, o),
    exec: async (c, o) => {
      const r = await tr.exec(c, o);
      received += Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
      return r;
    },
  };
  const t0 = performance.now();
  const noop = await moduleRunner({ ...lab!, transport: counting }, { baseDir: dir })('copy', { src: 'huge.bin', dest: '/srv/h5-huge.bin' });
  const ms = performance.now() - t0;
  t.false(noop.changed);
  t.true(received < 4096, `the no-op read ${received} bytes back`);
  t.true(ms < 5000, `the no-op took ${ms.toFixed(0)} ms`);
  t.log(`40 MB copy no-op: hostwire run ${again.ms} ms (2-byte file: ${tiny.ms} ms; first run ${first.ms} ms); module alone ${ms.toFixed(0)} ms, ${received} bytes back`);
  // Drift is still seen, and --diff names both sides by size and sha256.
  await sh('printf x >> /srv/h5-huge.bin');
  const check = await hostwire('huge.yml', ['--check', '--diff']);
  t.is(check.code, 0, check.out);
  t.regex(check.out, /diff skipped: destination file size is greater than 104448 \(41943041 bytes, sha256 [0-9a-f]{64}\)/);
  t.regex(check.out, /diff skipped: source file size is greater than 104448 \(41943040 bytes, sha256 [0-9a-f]{64}\)/);
  t.regex(check.out, /changed=1/);
  await sh('rm -f /srv/h5-huge.bin');
});

test.serial('owner/group that chown would read as options are argument errors; names and ids work', async (t) => {
  await sh("printf 'x\\n' > /srv/h5-owned.conf; chown root:root /srv/h5-owned.conf");
  const owner = await hostwire('owner.yml');
  t.not(owner.code, 0, owner.out);
  t.regex(owner.out, /owner\.yml:\d+/, 'names the playbook and line');
  t.regex(owner.out, /argument 'owner': expected a user name .* or a numeric id, got "--reference=\/etc\/shadow"/);
  const group = await hostwire('group.yml');
  t.not(group.code, 0, group.out);
  t.regex(group.out, /argument 'group': expected a group name .* or a numeric id, got "--reference=\/etc\/shadow"/);
  t.is(await sh('stat -c %U:%G /srv/h5-owned.conf'), 'root:root\n', 'nothing took /etc/shadow\'s group');
  const ids = await hostwire('ids.yml');
  t.is(ids.code, 0, ids.out);
  t.is(await sh('stat -c %U:%g /srv/h5-owned.conf'), 'nobody:0\n');
});

test.serial('SIGKILL at random points of a file-writing run: every file is old or new, never partial; no temp left', async (t) => {
  t.timeout(KILL_DEADLINE_MS + 30_000);
  const deadline = Date.now() + KILL_DEADLINE_MS;
  // The two generations, each converged by a complete run: the only states a file may ever be in.
  const full: Record<string, string[]> = {};
  let fullMs = 0;
  let writeMs = 0;
  for (const gen of ['a', 'b']) {
    const r = await write(gen);
    t.is(r.code, 0, r.out);
    full[gen] = await hashes();
    fullMs = Math.max(fullMs, r.ms);
    writeMs = Math.max(writeMs, r.writeMs ?? 0);
  }
  t.true(full.a.every((h, i) => h !== full.b[i] && h !== 'absent'), 'each file differs between the generations');
  t.true(writeMs > 0, 'the first write task shows in the output');
  let mixed = 0;
  for (let k = 0; k < KILLS; k++) {
    if (Date.now() >= deadline) return void t.fail(`deadline reached after ${k} kills`);
    const before = await hashes();
    // Towards the other generation (from a mixed state: either); every run then rewrites files.
    const gen = before.every((h, i) => h === full.a[i]) ? 'b' : before.every((h, i) => h === full.b[i]) ? 'a' : k % 2 ? 'b' : 'a';
    // Odd kills anywhere in the run (connect, lock, reads), even ones within its writes.
    const kill: Kill = k % 2 ? { ms: Math.round(Math.random() * fullMs) } : { ms: Math.round(Math.random() * writeMs), mark: FIRST_WRITE };
    const at = `${kill.ms} ms${kill.mark ? ' into the writes' : ''}`;
    const r = await write(gen, kill);
    const after = await hashes();
    MANAGED.forEach((f, i) => {
      t.true(after[i] === before[i] || after[i] === full[gen][i], `kill ${k} at ${at} (${r.signal ?? r.code}): ${f} is neither the old nor the new content`);
    });
    const changed = after.filter((h, i) => h !== before[i]).length;
    if (changed > 0 && changed < MANAGED.length) mixed++;
    // The host-side writer of a cut upload removes its temp as soon as it sees the early EOF.
    let left = await temps();
    for (let i = 0; left && i < 20; i++) {
      await new Promise((res) => setTimeout(res, 250));
      left = await temps();
    }
    t.is(left, '', `kill ${k} at ${at}: temp files left behind`);
    t.log(`kill ${k} at ${at} (run ~${fullMs} ms, writes ~${writeMs} ms; ${r.signal ?? `exit ${r.code}`}): ${changed}/${MANAGED.length} files replaced`);
    // Sometimes finish the interrupted generation; otherwise the next kill starts from a mixed state.
    if (Math.random() < 0.5) {
      const done = await write(gen);
      t.is(done.code, 0, done.out);
      t.deepEqual(await hashes(), full[gen]);
    }
  }
  t.log(`${mixed} of ${KILLS} kills landed between the first and the last write`);
  t.true(mixed > 0, 'some kills landed in the middle of the writes');
  const last = await write('a');
  t.is(last.code, 0, last.out);
  t.deepEqual(await hashes(), full.a);
  t.is(await temps(), '');
});
