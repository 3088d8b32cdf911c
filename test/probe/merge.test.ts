// Mergeable reads (src/probe/merge.ts): a batch's OVS queries made by one ovs-vsctl call give each
// probe exactly what it reads alone; a failing merged call sends every read back to be made alone.
// Recorded on a lab host (src/modules/ovs_bridge/cases/merged-vsctl*.json).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { splitBatch } from '../../src/probe/batch.js';
import { mergeBatch } from '../../src/probe/merge.js';
import { getModule } from '../../src/modules/registry.js';

interface Case { tasks: [string, Record<string, unknown>][]; batchStdout: string; single: string[] }
const load = (name: string): Case => JSON.parse(readFileSync(new URL(`../../../src/modules/ovs_bridge/cases/${name}.json`, import.meta.url), 'utf8'));
const probeOf = ([mod, args]: [string, Record<string, unknown>]) => {
  const m = getModule(mod)!;
  return m.probe!(m.args.parse(args), { host: 'h', vars: {} });
};

test('five OVS reads become one ovs-vsctl call and split back into what each reads alone', (t) => {
  const c = load('merged-vsctl');
  const probes = c.tasks.map(probeOf);
  const batch = mergeBatch(probes.map((p) => p.command));
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
  const batch = mergeBatch(probes.map((p) => p.command));
  const { outputs, retry } = batch.finish(splitBatch(c.batchStdout));
  t.is(outputs.size, 0);
  t.deepEqual(retry, probes.map((p) => p.command));
  t.throws(() => probes[0].parse(splitBatch(c.single[0]).get('0')!), { message: /no row "br-nope"/ });
});

test('a single mergeable read and merge=false stay plain commands', (t) => {
  const c = load('merged-vsctl');
  const [one] = c.tasks.map(probeOf);
  t.deepEqual(mergeBatch([one.command]).probes, [{ id: '0', command: one.command }]);
  const cmds = c.tasks.map(probeOf).map((p) => p.command);
  t.deepEqual(mergeBatch(cmds, false).probes.map((p) => p.command), cmds);
});
