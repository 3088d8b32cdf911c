// Reads a recorded batch fixture (see record-fixtures.ts) and splits it into probe outputs.
import { readFileSync } from 'node:fs';
import { splitBatch } from '../../src/probe/batch.js';
import type { ProbeOutput } from '../../src/probe/types.js';

export function fixtureBatch(name: string): Map<string, ProbeOutput> {
  return splitBatch(readFileSync(new URL(`../../../test/facts/fixtures/${name}.batch.txt`, import.meta.url), 'utf8'));
}

export function probeOut(name: string, id: string): ProbeOutput {
  const o = fixtureBatch(name).get(id);
  if (!o) throw new Error(`fixture ${name} has no probe ${id}`);
  return o;
}
