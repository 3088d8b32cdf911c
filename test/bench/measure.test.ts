// The bench's process-tree memory: found by walking down the children lists, as the full /proc scan did.
import test from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { treeRssKb } from '../../src/bench/measure.js';

const rssKb = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[21]) * 4;

test('a process tree: the root and a grandchild (through a shell) are counted', async (t) => {
  const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore', detached: true });
  t.teardown(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } });
  // The shell forks sleep when it gets the CPU: on a loaded machine 300 ms was not always enough (CI saw none).
  let sleeper = 0;
  for (const until = Date.now() + 20_000; !sleeper && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 100));
    sleeper = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0] ?? 0);
  }
  t.true(sleeper > 0);
  const tree = treeRssKb(child.pid!);
  t.is(tree, rssKb(child.pid!) + rssKb(sleeper));
  // This process's own RSS moves between the two reads (the CI saw it grow once): some read of a few counts the child's tree.
  let counted = false;
  for (let i = 0; i < 20 && !counted; i++) counted = treeRssKb(process.pid) >= rssKb(process.pid) + tree;
  t.true(counted, 'this process\'s tree counts the child\'s');
  t.is(treeRssKb(2 ** 22 + 1), 0, 'a pid that does not exist');
});
