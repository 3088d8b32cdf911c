// A VM scenario's figures: in the test's log and on stderr as they come, so a run cut off by its deadline
// (or the tier's timeout) keeps them.
import type { ExecutionContext } from 'ava';

export interface ScenarioLog {
  note(what: string): void;
  /** `what: N s` since `since` (Date.now() of the step's start). */
  step(what: string, since: number): void;
}

export function scenarioLog(t: ExecutionContext, lab: string): ScenarioLog {
  const note = (what: string) => {
    t.log(what);
    console.error(`[${lab}] ${what}`);
  };
  return { note, step: (what, since) => note(`${what}: ${((Date.now() - since) / 1000).toFixed(0)} s`) };
}
