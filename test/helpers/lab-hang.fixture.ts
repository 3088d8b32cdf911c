// Run by test/lab/lab-owner.test.ts in a child ava with a short timeout: brings up a lab, records it in
// $HW_HANG_OUT, then hangs until ava's timeout kills this worker (no t.teardown, no after hook runs).
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { labDown, labUp } from '../../src/lab/index.js';

test('a lab test that hangs past ava\'s timeout', async (t) => {
  const lab = process.env.HW_HANG_LAB!;
  t.teardown(() => labDown(lab)); // never runs: a timed-out worker is killed
  const up = await labUp({ name: lab, hosts: 1 });
  writeFileSync(process.env.HW_HANG_OUT!, JSON.stringify(up.state));
  await new Promise(() => setInterval(() => undefined, 1000)); // a live handle: the worker really hangs
  t.pass();
});
