// Our --list / --graph views against what ansible-inventory 2.14 printed for the same files
// (recorded by fixtures/record-golden.sh).
import test from 'ava';
import { formatInventoryJson, inventoryToGraph, inventoryToJson, loadInventory } from '../../src/engine/inventory/index.js';
import { cases, readFixture, sourcesOf } from './helpers.js';

for (const name of Object.keys(cases.inventories)) {
  test(`${name}: --list matches ansible-inventory`, async (t) => {
    const inv = await loadInventory(sourcesOf(name));
    const golden = readFixture('golden', `${name}.list.json`);
    t.deepEqual(inventoryToJson(inv), JSON.parse(golden));
    t.is(formatInventoryJson(inventoryToJson(inv)), golden.trimEnd());
  });

  test(`${name}: --list --export matches ansible-inventory`, async (t) => {
    const inv = await loadInventory(sourcesOf(name));
    t.deepEqual(inventoryToJson(inv, { export: true }), JSON.parse(readFixture('golden', `${name}.export.json`)));
  });

  test(`${name}: --graph and --graph --vars match ansible-inventory`, async (t) => {
    const inv = await loadInventory(sourcesOf(name));
    t.is(inventoryToGraph(inv), readFixture('golden', `${name}.graph.txt`).trimEnd());
    t.is(inventoryToGraph(inv, { vars: true }), readFixture('golden', `${name}.graph-vars.txt`).trimEnd());
    const from = cases.graphFrom[name];
    if (from) t.is(inventoryToGraph(inv, { group: from }), readFixture('golden', `${name}.graph-${from}.txt`).trimEnd());
  });
}
