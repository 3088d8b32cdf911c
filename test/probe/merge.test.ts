// Mergeable reads (src/probe/merge.ts): a batch's OVS queries made by one ovs-vsctl call give each
// probe exactly what it reads alone; a failing merged call sends every read back to be made alone;
// a kind of one's own needs nothing but its MergeKind.
// Recorded on a lab host (src/modules/ovs_bridge/cases/merged-vsctl*.json).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { buildBatch, splitBatch } from '../../src/probe/batch.js';
import { mergeableRead, mergeBatch } from '../../src/probe/merge.js';
import type { MergeKind } from '../../src/probe/types.js';
import { shellQuote } from '../../src/transports/quote.js';
import { getModule } from '../../src/modules/all.js';

interface Case { tasks: [string, Record<string, unknown>][]; batchStdout: string; single: string[] }
const load = (name: string): Case => JSON.parse(readFileSync(new URL(`../../../src/modules/ovs_bridge/cases/${name}.json`, import.meta.url), 'utf8'));
const probeOf = ([mod, args]: [string, Record<string, unknown>]) => {
  const m = getModule(mod)!;
  return m.probe!(m.args.parse(args), { host: 'h', vars: {} });
};

test('five OVS reads become one ovs-vsctl call and split back into what each reads alone', (t) => {
  const c = load('merged-vsctl');
  const probes = c.tasks.map(probeOf);
  const batch = mergeBatch(probes);
  t.is(batch.probes.length, 1, 'one merged probe, nothing left plain');
  t.is((batch.probes[0].command.match(/ovs-vsctl --timeout/g) ?? []).length, 1);
  const { outputs, retry } = batch.finish(splitBatch(c.batchStdout));
  t.deepEqual(retry, []);
  probes.forEach((p, i) => {
    const alone = splitBatch(c.single[i]).get('0')!;
    t.deepEqual(p.parse(outputs.get(p.command)!), p.parse(alone), c.tasks[i][0]);
  });
  t.like(probes[1].parse(outputs.get(probes[1].command)!) as object, { name: 'br-ex', datapath_type: 'netdev' });
  t.is(probes[2].parse(outputs.get(probes[2].command)!), undefined, 'a missing bridge stays missing');
});

test('a failing merged call is not split: every read is made alone (and reports its own error)', (t) => {
  const c = load('merged-vsctl-error');
  const probes = c.tasks.map(probeOf);
  const batch = mergeBatch(probes);
  const { outputs, retry } = batch.finish(splitBatch(c.batchStdout));
  t.is(outputs.size, 0);
  t.deepEqual(retry, probes);
  t.throws(() => probes[0].parse(splitBatch(c.single[0]).get('0')!), { message: /no row "br-nope"/ });
});

test('a single mergeable read and merge=false stay plain commands', (t) => {
  const c = load('merged-vsctl');
  const [one] = c.tasks.map(probeOf);
  t.deepEqual(mergeBatch([one]).probes, [{ id: '0', command: one.command }]);
  const probes = c.tasks.map(probeOf);
  t.deepEqual(mergeBatch(probes, false).probes.map((p) => p.command), probes.map((p) => p.command));
});

// A kind of one's own: each read prints one word; merged, one printf prints them all.
const wordKind: MergeKind<string> = {
  name: 'words',
  script: (words) => `printf '%s\\n' ${words.map(shellQuote).join(' ')}`,
  split: (stdout, words) => {
    const lines = stdout.split('\n').slice(0, words.length);
    return lines.length === words.length ? lines.map((l) => `${l}\n`) : undefined;
  },
};
const wordRead = (w: string) => mergeableRead(`printf '%s\\n' ${shellQuote(w)}`, wordKind, w);
const sh = (script: string) => execFileSync('/bin/sh', ['-c', script], { encoding: 'utf8' });

test('a new merged-read kind is one MergeKind: its reads merge into one script and split back into what each prints alone', (t) => {
  const reads = [wordRead('alpha'), { command: 'echo plain' }, wordRead('beta gamma'), wordRead("it's")];
  const batch = mergeBatch(reads);
  t.deepEqual(batch.probes.map((p) => p.id), ['0', 'm0'], 'the plain read, then one script for the three words');
  const { outputs, retry } = batch.finish(splitBatch(sh(buildBatch(batch.probes))));
  t.deepEqual(retry, []);
  for (const r of reads) t.deepEqual(outputs.get(r.command), splitBatch(sh(buildBatch([{ id: '0', command: r.command }]))).get('0'), r.command);
  t.is(outputs.get(reads[2].command)?.stdout, 'beta gamma\n');
});

test('merge information travels with the probe: the same command text without it stays a plain read', (t) => {
  const merged = [wordRead('a'), wordRead('b')];
  t.is(mergeBatch(merged).probes.length, 1);
  // No process-wide memory of command text: a read is merged only when it says how.
  t.deepEqual(mergeBatch(merged.map((r) => ({ command: r.command }))).probes.map((p) => p.command), merged.map((r) => r.command));
});
