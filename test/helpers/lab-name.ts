// A lab test's lab name, its own per run: a fixed name let a second run of the same file (a developer's run
// beside CI, two worktrees) tear down the first run's live lab in its pre-clean. The name is a readable base
// (the test file's base name, or a short word the test gives) cut to fit, then the owning worker's pid in
// base 36 (always 3 characters): `uplinkre` + `k2x`. A crashed run's lab is found by its recorded owner
// (src/lab/owner.ts), not by its name.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkLabName, labDir } from '../../src/lab/names.js';
import { OWNER_ENV, processStartTicks } from '../../src/lab/owner.js';
import { statePath, type LabOwner } from '../../src/lab/state.js';

const MAX = 12;
const SUFFIX = 3;
const SPAN = 36 ** SUFFIX;

/** The pid labs of this process belong to: the test worker's (OWNER_ENV), else this process. */
export function ownerPid(): number {
  const env = process.env[OWNER_ENV];
  return env && /^[1-9]\d*$/.test(env) ? Number(env) : process.pid;
}

/** `file:///.../uplink-rollback.test.js` -> `uplink-rollback`; a plain word stays as it is. */
export function baseOf(fileOrWord: string): string {
  if (!fileOrWord.startsWith('file:')) return fileOrWord;
  return path.basename(fileURLToPath(fileOrWord)).replace(/(\.test)?\.[cm]?[jt]s$/, '');
}

/**
 * Squeezes a base to `budget` lowercase letters/digits, starting with a letter, keeping every word's start:
 * `uplink-rollback` -> `uplinkro` (8), `uplink-fault-checks` -> `upfauchec`... each word gets an even share,
 * what a short word leaves goes to the others.
 */
export function squeeze(base: string, budget: number): string {
  const words = base.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  if (!words.length || !/^[a-z]/.test(words[0]!)) words.unshift('t');
  // One word too long: its head and its last character (`ovsv6vb28s`/`ovsv6vb28d` stay apart).
  if (words.length === 1 && words[0]!.length > budget) return words[0]!.slice(0, budget - 1) + words[0]!.slice(-1);
  const share = new Array<number>(words.length).fill(0);
  let left = Math.min(budget, words.join('').length);
  // Round-robin one character at a time: even shares, and a short word's leftover goes to the rest.
  while (left > 0) {
    for (let i = 0; i < words.length && left > 0; i++) {
      if (share[i]! < words[i]!.length) { share[i]!++; left--; }
    }
  }
  return words.map((w, i) => w.slice(0, share[i])).join('');
}

/** The pid's 3-character base-36 tag (pids above 36^3 wrap; uniqueness is checked against live labs). */
export const pidTag = (pid: number): string => (pid % SPAN).toString(36).padStart(SUFFIX, '0');

/**
 * Pure part: base + pid tag; when `taken` says a name is in use by someone else, the tag steps on
 * (the next 3-character value) until a free one - at most a few labs ever share a tag.
 */
export function pickLabName(fileOrWord: string, pid: number, taken: (name: string) => boolean): string {
  const base = squeeze(baseOf(fileOrWord), MAX - SUFFIX);
  for (let i = 0; i < 50; i++) {
    const name = checkLabName(base + pidTag(pid + i));
    if (!taken(name)) return name;
  }
  throw new Error(`no free lab name for ${fileOrWord} (50 tried from ${base}${pidTag(pid)})`);
}

/**
 * Whether a lab of that name on this machine belongs to someone else: its owner is a live process other
 * than `pid`, or it has no owner (a user's `lab up`), or its folder has no record yet (being made). A lab
 * whose owner has ended is free: its pre-clean (or any `lab up`'s sweep) removes it.
 */
export function labTakenByOther(name: string, pid: number): boolean {
  if (!existsSync(labDir(name))) return false;
  let owner: LabOwner | undefined;
  try {
    owner = (JSON.parse(readFileSync(statePath(name), 'utf8')) as { owner?: LabOwner }).owner;
  } catch {
    return true;
  }
  if (!owner) return true;
  if (owner.pid === pid) return false;
  return processStartTicks(owner.pid) === owner.startTicks;
}

/**
 * This run's name for a lab test's lab: `testLabName(import.meta.url)` (the file's base name) or
 * `testLabName('h4ref')` (a test's own word, for a file with several labs). Same input, same name within a run.
 */
export function testLabName(fileOrWord: string): string {
  const pid = ownerPid();
  return pickLabName(fileOrWord, pid, (name) => labTakenByOther(name, pid));
}
