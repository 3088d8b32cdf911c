// The bad-input corpus (test/engine/bad-input-cases/*.case, format in test/helpers/bad-input-corpus.ts):
// every case must end with its expected exit code and message, within a time bound and under 500 MB,
// with no stack trace and no "internal error"; a message about a file with lines names file:line.
// Cases marked `lab: true` need a reachable host and run against one lab host (prefix h7c).
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { materialise, parseCase, workerPool, type CorpusCase } from '../helpers/bad-input-corpus.js';
import { labDown, labUp, labInventoryYaml } from '../../src/lab/index.js';
import { testLabName } from '../helpers/lab-name.js';

const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const casesDir = path.join(root, 'test/engine/bad-input-cases');
const cases: CorpusCase[] = readdirSync(casesDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.case')).sort()
  .map((f) => parseCase(f.replace(/\.case$/, ''), readFileSync(path.join(casesDir, f), 'utf8')));

const work = mkdtempSync(path.join(tmpdir(), 'hw-corpus-'));
// No host answers on port 1: a case that wrongly gets past its error ends unreachable (4), not 5.
const deadInventory = path.join(work, 'dead.ini');
writeFileSync(deadInventory, '[nodes]\nnode1 ansible_host=127.0.0.1 ansible_port=1\n');
const LAB = testLabName(import.meta.url);
const labInventory = path.join(work, 'lab.yml');
const pool = workerPool(2, 60_000);
let labReady: Promise<void> | undefined;
const needLab = () => (labReady ??= labUp({ name: LAB, hosts: 1 }).then((up) => writeFileSync(labInventory, labInventoryYaml(up.state))));

test.after.always(async () => {
  pool.close();
  if (labReady) await labDown(LAB).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

const MAX_RSS_KB = 500 * 1024;

for (const c of cases) {
  test(`corpus: ${c.name}`, async (t) => {
    if (c.lab) await needLab();
    const dir = path.join(work, c.name.replace(/\//g, '__'));
    const argv = materialise(c, dir, c.lab ? labInventory : deadInventory);
    const r = await pool.run(argv, dir);
    const out = `${r.stdout}\n${r.stderr}`;
    t.log(`${r.ms} ms, peak RSS ${Math.round(r.maxRssKb / 1024)} MB`);
    t.falsy(r.hung, `hung: ${r.stderr}`);
    t.is(r.code, c.exit, out);
    for (const e of c.expect) t.true(out.includes(e.replaceAll('$DIR', dir)), `expected "${e}" in:\n${out}`);
    t.false(/\n\s+at .+:\d+:\d+\)?\n/.test(out), `stack trace leaked:\n${out}`);
    t.false(out.includes('internal error'), out);
    if (c.exit === 5 && c.line) t.regex(r.stderr, /ERROR! \S+:\d+(:\d+)?: /, 'the message names file:line');
    t.true(r.maxRssKb < MAX_RSS_KB, `peak RSS ${Math.round(r.maxRssKb / 1024)} MB`);
  });
}
