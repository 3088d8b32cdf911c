// The cycle a state module passes on a lab host through a playbook (converge, changed=0 again, --check
// changing nothing), kept here so each module's lab test states only its playbook and how to read the
// host: --check first predicts the change and leaves the host as it was, a run converges, a second run
// reports changed=0, and --check then predicts nothing.
import type { ExecutionContext } from 'ava';
import type { LabPlay, PlayRun } from './lab-play.js';

export interface Cycle {
  checked: PlayRun;
  first: PlayRun;
  again: PlayRun;
}

export async function playCycle(t: ExecutionContext, play: LabPlay, name: string, yaml: string, read: () => Promise<string>, o: { diff?: boolean } = {}): Promise<Cycle> {
  const before = await read();
  const checked = await play(`${name}-check`, yaml, { check: true, diff: o.diff });
  t.true(checked.changed > 0, `${name}: --check predicts a change`);
  t.is(await read(), before, `${name}: --check left the host as it was`);
  const first = await play(name, yaml, { diff: o.diff });
  t.true(first.changed > 0, `${name}: the first run changes the host`);
  t.not(await read(), before, `${name}: the host changed`);
  const converged = await read();
  const again = await play(`${name}-again`, yaml);
  t.is(again.changed, 0, `${name}: the second run reports changed=0`);
  const checkAgain = await play(`${name}-check-again`, yaml, { check: true });
  t.is(checkAgain.changed, 0, `${name}: --check on the converged host predicts nothing`);
  t.is(await read(), converged, `${name}: nothing moved after converging`);
  return { checked, first, again };
}
