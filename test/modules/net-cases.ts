// Recorded lab outputs of the network modules (src/modules/<name>/cases/*.json), for unit tests.
import { readFileSync } from 'node:fs';

export interface RecordedCase {
  command: string;
  rc: number;
  stdout: string;
  stderr?: string;
  args?: Record<string, unknown>;
}

export function loadCase(module: string, name: string): RecordedCase {
  const url = new URL(`../../../src/modules/${module}/cases/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as RecordedCase;
}

/** A recorded plain command output wrapped as the module's probe section would print it. */
export const asSection = (name: string, c: RecordedCase) => `::sec ${name}\n${c.stdout}${c.stderr ?? ''}${(c.stdout + (c.stderr ?? '')).endsWith('\n') || c.stdout + (c.stderr ?? '') === '' ? '' : '\n'}::rc ${c.rc}\n`;
