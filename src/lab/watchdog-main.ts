// Entry of a lab's watchdog (started by owner.ts, detached): polls the lab's owner and tears the lab down
// once the owner has ended. Exits by itself when the lab is gone or replaced (another createdAt).
// Usage: node watchdog-main.js <lab> <createdAt>
import { ownerAlive } from './owner.js';
import { sleep } from './run.js';
import { readState } from './state.js';
import { teardownLab } from './teardown.js';
import { checkLabName } from './names.js';

const POLL_MS = 500;

async function watch(lab: string, createdAt: string): Promise<void> {
  for (;;) {
    const state = await readState(lab);
    if (!state || state.createdAt !== createdAt || !state.owner) return;
    if (!(await ownerAlive(state.owner))) {
      await teardownLab(lab);
      return;
    }
    await sleep(POLL_MS);
  }
}

const [lab, createdAt] = process.argv.slice(2);
if (!lab || !createdAt) {
  process.stderr.write('usage: watchdog-main.js <lab> <createdAt>\n');
  process.exit(2);
}
watch(checkLabName(lab), createdAt).then(() => process.exit(0), (e: Error) => {
  process.stderr.write(`lab ${lab} watchdog: ${e.message}\n`);
  process.exit(1);
});
