// A stand-in for a test worker (test/lab/lab-owner.test.ts, test/vm/lab-nics.test.ts): brings up a lab it
// owns, prints `READY <state.json>`, then waits until it is killed, as a hung test would.
// Usage: node lab-owner-child.js '<LabUpOptions as JSON>'
import { labUp, type LabUpOptions } from '../../src/lab/index.js';

const options = JSON.parse(process.argv[2] ?? '{}') as LabUpOptions;
labUp({ ...options, ownerPid: process.pid, onProgress: (l) => process.stderr.write(`${l}\n`) }).then((up) => {
  process.stdout.write(`READY ${JSON.stringify(up.state)}\n`);
  setInterval(() => undefined, 60_000);
}, (e: Error) => {
  process.stderr.write(`FAILED ${e.message}\n`);
  process.exit(1);
});
