// Shared paths for the inventory tests: fixtures live in the source tree, not in dist/.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const fixturesDir = fileURLToPath(new URL('../../../test/inventory/fixtures/', import.meta.url));

export const fixture = (...parts: string[]): string => join(fixturesDir, ...parts);

export const readFixture = (...parts: string[]): string => readFileSync(fixture(...parts), 'utf8');

export interface Cases {
  inventories: Record<string, string[]>;
  graphFrom: Record<string, string>;
  patterns: [string, string, string | null][];
}

export const cases = JSON.parse(readFixture('cases.json')) as Cases;

// Host lists (`a,b,`) are passed through as they are, paths are made absolute.
export const sourcesOf = (name: string): string[] => cases.inventories[name]!.map((s) => (s.includes(',') ? s : fixture(s)));
