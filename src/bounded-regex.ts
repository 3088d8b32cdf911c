// Regexes over text a run does not control (templates' regex filters over data, replace's pattern over
// a host's file) run with a time bound: JavaScript's engine backtracks, so a pattern such as (a+)+$ on
// a short input can run for hours. Matching happens in one worker thread while the caller waits on a
// shared flag (filters are synchronous); past the bound the worker is ended and the match fails
// naming the pattern, instead of the run hanging. Callers turn RegexLimitError into their own error.
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** A match that did not finish in time, or a pattern the engine refused. */
export class RegexLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegexLimitError';
  }
}

/** Far above any sane match (microseconds), low enough that a stuck run is noticed. */
export const REGEX_TIME_LIMIT_MS = 5000;

export interface RegexMatch extends Array<string | undefined> {
  index: number;
  groups?: Record<string, string>;
  /** With the d flag: each named group's [start, end] (undefined when it did not take part). */
  spans?: Record<string, [number, number] | undefined>;
}

const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ source, flags, input, all, signal, port }) => {
  let out;
  try {
    const re = new RegExp(source, flags);
    const found = [];
    const keep = (m) => found.push({ m: [...m], index: m.index, groups: m.groups ? { ...m.groups } : undefined, spans: m.indices && m.indices.groups ? { ...m.indices.groups } : undefined });
    if (all) for (const m of input.matchAll(re)) keep(m);
    else { const m = re.exec(input); if (m) keep(m); }
    out = { found };
  } catch (e) {
    out = { error: String((e && e.message) || e) };
  }
  port.postMessage(out);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});`;

let worker: Worker | undefined;

function matcher(): Worker {
  if (!worker) {
    worker = new Worker(WORKER_CODE, { eval: true });
    worker.unref();
    worker.on('error', () => (worker = undefined));
  }
  return worker;
}

function run(re: RegExp, input: string, all: boolean): RegexMatch[] {
  const w = matcher();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  try {
    w.postMessage({ source: re.source, flags: all && !re.flags.includes('g') ? `${re.flags}g` : re.flags, input, all, signal, port: port2 }, [port2]);
    if (Atomics.wait(signal, 0, 0, REGEX_TIME_LIMIT_MS) === 'timed-out') {
      void w.terminate();
      worker = undefined;
      throw new RegexLimitError(`the regular expression '${re.source}' did not finish within ${REGEX_TIME_LIMIT_MS / 1000} s on a ${input.length}-character input (catastrophic backtracking); expected a pattern without nested repetition such as (a+)+`);
    }
    const reply = receiveMessageOnPort(port1)?.message as { found?: { m: (string | undefined)[]; index: number; groups?: Record<string, string>; spans?: RegexMatch['spans'] }[]; error?: string } | undefined;
    if (!reply || reply.error !== undefined) throw new RegexLimitError(`regular expression '${re.source}' failed: ${reply?.error ?? 'no answer'}`);
    return reply.found!.map((f) => Object.assign(f.m, { index: f.index, groups: f.groups }, f.spans ? { spans: f.spans } : {}) as RegexMatch);
  } finally {
    port1.close();
  }
}

/** The first match of `re` in `input` (as RegExp.exec), or null. */
export const firstMatch = (re: RegExp, input: string): RegexMatch | null => run(re, input, false)[0] ?? null;

/** Every match (as String.matchAll). */
export const allMatches = (re: RegExp, input: string): RegexMatch[] => run(re, input, true);
