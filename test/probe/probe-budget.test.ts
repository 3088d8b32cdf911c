// The adaptive look-ahead of state reads: a no-op host reads everything in one exec; a host where
// every task changes something stops re-reading the whole look-ahead after each change.
import test from 'ava';
import { invalidateProbes, readProbe } from '../../src/probe/read-ahead.js';
import { MAX_BATCH, newHostReads, type ProbeHost } from '../../src/probe/host.js';
import type { Transport } from '../../src/transports/transport.js';

function fakeHost(): { h: ProbeHost; batches: number[] } {
  const batches: number[] = [];
  const transport = {
    name: 'fake',
    stats: { execs: 0, bytesSent: 0, connects: 1 },
    async connect() {},
    async close() {},
    async writeFile() {},
    async exec(script: string) {
      const ids = [...script.matchAll(/^echo '@@probe (\S+)'$/gm)].map((m) => m[1]);
      batches.push(ids.length);
      return { code: 0, stderr: '', stdout: ids.map((id) => `@@probe ${id}\nout\n@@rc 0\n`).join('') };
    },
  } as unknown as Transport;
  const h: ProbeHost = { name: 'fake', transport, reads: newHostReads() };
  return { h, batches };
}

const probes = Array.from({ length: 20 }, (_, i) => ({ command: `read ${i}`, parse: (o: { stdout: string }) => o.stdout }));

test('a no-op run reads all upcoming probes in one exec', async (t) => {
  const { h, batches } = fakeHost();
  for (let i = 0; i < probes.length; i++) await readProbe(h, probes[i]!, () => probes.slice(i));
  t.deepEqual(batches, [20]);
});

test('a converge where every task changes reads one probe per task after the first change', async (t) => {
  const { h, batches } = fakeHost();
  for (let i = 0; i < probes.length; i++) {
    await readProbe(h, probes[i]!, () => probes.slice(i));
    invalidateProbes(h); // the task changed the host
  }
  t.deepEqual(batches, [20, ...Array(19).fill(1)]);
});

test('after changes stop, the look-ahead grows back (x4 per batch used up unspoiled)', async (t) => {
  const { h, batches } = fakeHost();
  for (let i = 0; i < probes.length; i++) {
    await readProbe(h, probes[i]!, () => probes.slice(i));
    if (i < 2) invalidateProbes(h);
  }
  // Tasks 0 and 1 change; task 2 reads 1 (the last budget), then 4, then the rest.
  t.deepEqual(batches, [20, 1, 1, 4, 13]);
  t.true(h.reads.budget.size <= MAX_BATCH);
});

test('each host keeps its own budget: a change on one host does not shrink the other\'s look-ahead', async (t) => {
  const a = fakeHost();
  const b = fakeHost();
  await readProbe(a.h, probes[0]!, () => probes);
  invalidateProbes(a.h);
  t.is(a.h.reads.budget.size, 1);
  await readProbe(b.h, probes[0]!, () => probes);
  t.deepEqual(b.batches, [20]);
  t.is(b.h.reads.budget.size, MAX_BATCH);
});
