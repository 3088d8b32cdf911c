// What every module lab test states about convergence, said once: on an unconverged host --check
// predicts a change and leaves the host as it was; a run converges; the run again reports changed=0
// and failed=0; --check after it predicts nothing more. `state` reads what the module manages on the
// host (a file, a group, an OVSDB row): --check must leave it byte for byte as it found it.
// Also the lab module test's frame: one lab host per test file, its temp folder, both torn down
// after the tests even when they fail or time out.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { labHost, type LabHost } from './lab-host.js';
import type { LabUpOptions } from '../../src/lab/index.js';
import { labPlay, type LabPlay, type PlayRun } from './lab-play.js';

export interface LabModuleTest {
  /** The test folder (playbooks, files/ a play copies from). */
  dir: string;
  /** Brings the lab host up (once; call it inside a test, under that test's own deadline). */
  up(): Promise<{ host: LabHost; play: LabPlay }>;
}

/** Registers the teardown (test.after.always) of one lab host and folder for this test file; `options`: the lab's (extra packages). */
export function labModuleTest(lab: string, options: Omit<LabUpOptions, 'name'> = {}): LabModuleTest {
  const dir = mkdtempSync(path.join(tmpdir(), `hw-${lab}-`));
  let host: LabHost | undefined;
  let upping: Promise<{ host: LabHost; play: LabPlay }> | undefined;
  test.after.always(async () => {
    await upping?.catch(() => undefined);
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    up: () => (upping ??= labHost(lab, options).then((h) => {
      host = h;
      return { host: h, play: labPlay(h, dir) };
    })),
  };
}

export interface ConvergeOptions {
  /** What the module manages on the host, read the same way before and after each --check. */
  state?: () => Promise<string>;
  /** Run --check first, on the unconverged host (default true): it must predict a change and touch nothing. */
  checkFirst?: boolean;
  /** Run --check after the second run (default true): it must predict changed=0. */
  checkAgain?: boolean;
  /** Pass --diff to every run. */
  diff?: boolean;
}

export interface Convergence {
  checked?: PlayRun;
  first: PlayRun;
  again: PlayRun;
  checkedAgain?: PlayRun;
}

/** --check (touches nothing), converge (changes), again (changed=0), --check again (changed=0). */
export async function convergePlay(t: ExecutionContext, play: LabPlay, name: string, yaml: string, o: ConvergeOptions = {}): Promise<Convergence> {
  const read = o.state ?? (async () => '');
  const out: Partial<Convergence> = {};
  const unconverged = await read();
  if (o.checkFirst ?? true) {
    const before = unconverged;
    out.checked = await play(`${name}-check`, yaml, { check: true, diff: o.diff });
    t.true(out.checked.changed > 0, `${name}: --check on the unconverged host predicts a change`);
    t.is(await read(), before, `${name}: --check left the host as it was`);
  }
  out.first = await play(name, yaml, { diff: o.diff });
  t.true(out.first.changed > 0, `${name}: the first run changes the host`);
  if (o.state) t.not(await read(), unconverged, `${name}: the state read from the host changed`);
  out.again = await play(`${name}-again`, yaml, { diff: o.diff });
  t.is(out.again.changed, 0, `${name}: the second run reports changed=0`);
  t.is(out.again.summary.exitCode, 0, `${name}: the second run ends ok`);
  if (o.checkAgain ?? true) {
    const before = await read();
    out.checkedAgain = await play(`${name}-check-again`, yaml, { check: true, diff: o.diff });
    t.is(out.checkedAgain.changed, 0, `${name}: --check on the converged host predicts changed=0`);
    t.is(await read(), before, `${name}: --check on the converged host left it as it was`);
  }
  return out as Convergence;
}
