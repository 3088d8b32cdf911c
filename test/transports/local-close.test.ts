// Closing a local transport ends the long-running commands it started (as closing an ssh connection
// ends its channels): a fallback worker or lock holder on the controller cannot outlive the run.
import test from 'ava';
import { LocalTransport } from '../../src/transports/local.js';

test('close() ends what start() started: its stdin closes, then it is told to stop', async (t) => {
  const local = new LocalTransport('controller');
  const reader = await local.start('cat >/dev/null; echo done-by-eof');
  const sleeper = await local.start('exec sleep 600');
  let out = '';
  reader.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await local.close();
  const within = (p: Promise<unknown>) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
  t.true(await within(reader.done), 'the stdin reader ended');
  t.true(await within(sleeper.done), 'the sleeper ended');
  t.is((await sleeper.done).code, 143, 'by SIGTERM');
});
