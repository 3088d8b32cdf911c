// The bench's process-tree memory: found by walking down the children lists, as the full /proc scan did.
import test from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { treeRssKb } from '../../src/bench/measure.js';

const rssKb = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[21]) * 4;

test('a process tree: the root and a grandchild (through a shell) are counted', async (t) => {
  const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore', detached: true });
  t.teardown(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } });
  await new Promise((r) => setTimeout(r, 300));
  const sleeper = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim());
  t.true(sleeper > 0);
  const tree = treeRssKb(child.pid!);
  t.is(tree, rssKb(child.pid!) + rssKb(sleeper));
  t.true(treeRssKb(process.pid) >= rssKb(process.pid) + tree);
  t.is(treeRssKb(2 ** 22 + 1), 0, 'a pid that does not exist');
});
