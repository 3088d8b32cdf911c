// Two runs of one lab test file must not tear down each other's labs: from a test run (HOSTWIRE_LAB_OWNER_PID
// set) `labDown` refuses a lab whose recorded owner is another live process, `labUp` never replaces one (from
// anywhere); a user's `hostwire lab down --name X` (no owner in its environment) still removes any lab. Lab
// records only (state.json, no hosts): nothing else on the machine is touched.
import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { labDown, labUp, LabOwnedError } from '../../src/lab/index.js';
import { labDir, labNetns } from '../../src/lab/names.js';
import { OWNER_ENV, processStartTicks } from '../../src/lab/owner.js';
import { statePath, type LabOwner } from '../../src/lab/state.js';
import { labTakenByOther, pickLabName, testLabName } from '../helpers/lab-name.js';

const repo = new URL('../../../', import.meta.url).pathname;
const NAME = testLabName(import.meta.url);

/** A lab record owned by `owner` (absent: none), as `lab up` writes it first. */
async function record(name: string, owner?: LabOwner): Promise<void> {
  await mkdir(labDir(name), { recursive: true, mode: 0o700 });
  await writeFile(statePath(name), JSON.stringify({ version: 1, name, createdAt: new Date().toISOString(), subnet: { cidr: '10.250.250.0/24' },
    netns: labNetns(name), bridge: 'br0', rootfs: '/nonexistent', dir: labDir(name), keyFile: '', knownHostsFile: '', capabilities: {}, hosts: [], owner }));
}

/** pid 1 stands for another run's live worker: alive, not this process. */
const otherLive = async (): Promise<LabOwner> => ({ pid: 1, startTicks: (await processStartTicks(1))! });
const cli = (env: string) => execa('node', ['dist/src/cli/main.js', 'lab', 'down', '--name', NAME], { cwd: repo, reject: false, env: { [OWNER_ENV]: env } });

test.after.always(async () => {
  const saved = process.env[OWNER_ENV];
  delete process.env[OWNER_ENV];
  await labDown(NAME).catch(() => undefined);
  process.env[OWNER_ENV] = saved;
});

test.serial("from a test run, another live process's lab is neither removed nor replaced; a user's lab down removes it", async (t) => {
  t.is(process.env[OWNER_ENV], String(process.pid), 'this worker is a test run');
  await record(NAME, await otherLive());
  const down = await t.throwsAsync(labDown(NAME), { instanceOf: LabOwnedError });
  t.is(down!.message, `lab ${NAME}: not removed - it belongs to the running process 1 (another test run), not to this one. ` +
    `When that process ends its lab goes with it; \`hostwire lab down --name ${NAME}\` from a shell removes it now`);
  await t.throwsAsync(labUp({ name: NAME, hosts: 1 }), { instanceOf: LabOwnedError, message: new RegExp(`^lab ${NAME}: not brought up again - it belongs to the running process 1 `) });
  t.true(existsSync(statePath(NAME)), 'the record is still there');
  // The name helper sees it as taken and steps on.
  t.true(labTakenByOther(NAME, process.pid));
  t.not(pickLabName(import.meta.url, process.pid, (n) => labTakenByOther(n, process.pid)), NAME);
  // A CLI the test starts is part of the run (the owner in its environment): refused too.
  const child = await cli(String(process.pid));
  t.not(child.exitCode, 0, child.stderr);
  t.regex(child.stderr, new RegExp(`lab ${NAME}: not removed - it belongs to the running process 1`));
  t.true(existsSync(statePath(NAME)));
  // A user's `lab down --name X` (no owner in the environment): removed, as always.
  const user = await cli('');
  t.is(user.exitCode, 0, user.stderr);
  t.regex(user.stderr, new RegExp(`lab ${NAME} down in `));
  t.false(existsSync(labDir(NAME)));
});

test.serial("a lab of this run, of an ended process or of nobody: a test run's labDown removes it", async (t) => {
  const me = await processStartTicks(process.pid);
  for (const owner of [{ pid: process.pid, startTicks: me! }, { pid: process.pid, startTicks: me! - 1 }, undefined]) {
    await record(NAME, owner);
    t.is(labTakenByOther(NAME, process.pid), owner === undefined, JSON.stringify(owner));
    await labDown(NAME);
    t.false(existsSync(labDir(NAME)), JSON.stringify(owner));
  }
});
