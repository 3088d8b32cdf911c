// Every import in src/ against the floors (test/architecture/layering.ts, docs/architecture.md), and
// no import circle between files. Fails on any new upward or unlisted sideways import, on a runner
// file importing one module's folder, on a new top-level room that sits on no floor, and on a circle.
import test from 'ava';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FLOORS, floorOf, layeringViolations } from './layering.js';
import { importCircles, importEdges, listSources, REPO_ROOT, type ImportEdge } from './source-tree.js';

const files = listSources('src');
const edges = importEdges(files);

test('every top-level entry of src/ sits on a floor', (t) => {
  const rooms = readdirSync(join(REPO_ROOT, 'src')).filter((n) => !n.endsWith('.md'));
  t.deepEqual(rooms.filter((r) => floorOf(r) === undefined), [], `floors: ${JSON.stringify(FLOORS)}`);
});

test('no import goes up a floor, sideways unlisted, or from the runner to one module', (t) => {
  t.deepEqual(layeringViolations(edges).map((v) => v.message), []);
});

test('no import circle between files', (t) => {
  t.deepEqual(importCircles(files, edges).map((c) => c.join(' <> ')), []);
});

// The checker itself, on made-up edges: the test above can only fail if these are reported.
const edge = (from: string, to: string): ImportEdge => ({ from, to, line: 1, typeOnly: false });

test('checker: an upward, a sideways and a runner-to-module import are reported', (t) => {
  const found = layeringViolations([
    edge('src/transports/ssh.ts', 'src/vault/secrets.ts'), // sideways on floor 1
    edge('src/modules/debug/debug.ts', 'src/engine/vars/index.ts'), // upward
    edge('src/engine/runner/run-play.ts', 'src/modules/systemd_unit/daemon-reload.ts'), // names a module
    edge('src/newroom/x.ts', 'src/errors.ts'), // no floor
    edge('src/modules/systemd/plan.ts', 'src/modules/service/parse.ts'), // another module's folder
  ]);
  t.is(found.length, 5);
  t.regex(found[0]!.message, /sideways on floor 1, transports -> vault/);
  t.regex(found[1]!.message, /upward, modules \(floor 3\) -> engine \(floor 4\)/);
  t.regex(found[2]!.message, /the runner names a module/);
  t.regex(found[3]!.message, /room 'newroom' sits on no floor/);
  t.regex(found[4]!.message, /a module imports another module's folder/);
});

test('checker: downward, same-room, listed sideways and runner -> registry/kit imports pass', (t) => {
  t.deepEqual(layeringViolations([
    edge('src/cli/run.ts', 'src/engine/runner/run-playbook.ts'),
    edge('src/modules/file/file.ts', 'src/modules/kit/apply.ts'),
    edge('src/modules/registry.ts', 'src/modules/copy/copy.ts'),
    edge('src/modules/subnet_lease/subnet_lease.ts', 'src/sdn/pool.ts'),
    edge('src/engine/runner/run-task.ts', 'src/modules/registry.ts'),
    edge('src/engine/runner/run-task.ts', 'src/modules/kit/apply.ts'),
    edge('src/transports/ssh.ts', 'src/errors.ts'),
  ]), []);
});

test('checker: circles between files are found, acyclic chains are not', (t) => {
  const fs = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'];
  t.deepEqual(importCircles(fs, [edge('src/a.ts', 'src/b.ts'), edge('src/b.ts', 'src/c.ts'), edge('src/c.ts', 'src/a.ts'), edge('src/c.ts', 'src/d.ts')]),
    [['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  t.deepEqual(importCircles(fs, [edge('src/a.ts', 'src/b.ts'), edge('src/b.ts', 'src/c.ts')]), []);
  t.deepEqual(importCircles(fs, [edge('src/d.ts', 'src/d.ts')]), [['src/d.ts']]);
});
