// The bad-input corpus: cases are files (test/engine/bad-input-cases/*.case), each a small archive
// of the files a case needs plus its command line and what must come out. Cases run in-process in
// two worker processes (corpus-worker.ts); a case that does not answer in time is a hang and its
// worker is replaced.
import { fork, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface CorpusCase {
  name: string;
  /** Command line after `hostwire`, split on spaces; $DIR is the case's folder, $INV its default inventory. */
  args: string[];
  exit: number;
  /** Fragments that must all appear in stdout+stderr. */
  expect: string[];
  /** Needs a reachable host: $INV is then the lab's inventory. */
  lab: boolean;
  /** The input has lines, so the error must name file:line (default: when the case has files). */
  line: boolean;
  files: Record<string, string>;
}

/** `key: value` header lines, then `-- path --` sections with each file's text. */
export function parseCase(name: string, text: string): CorpusCase {
  const c: CorpusCase = { name, args: [], exit: 5, expect: [], lab: false, line: true, files: {} };
  const lines = text.split('\n');
  let i = 0;
  for (; i < lines.length && !/^-- .+ --$/.test(lines[i]!); i++) {
    const m = /^(\w+):\s?(.*)$/.exec(lines[i]!);
    if (!m) continue;
    const [, key, value] = m as unknown as [string, string, string];
    if (key === 'args') c.args = value.split(' ').filter(Boolean).map((a) => a.replace(/\\s/g, ' '));
    else if (key === 'exit') c.exit = Number(value);
    else if (key === 'expect') c.expect.push(value);
    else if (key === 'lab') c.lab = value === 'true';
    else if (key === 'line') c.line = value === 'true';
    else throw new Error(`${name}: unknown header '${key}'`);
  }
  let current: string | undefined;
  for (; i < lines.length; i++) {
    const m = /^-- (.+) --$/.exec(lines[i]!);
    if (m) c.files[(current = m[1]!)] = '';
    else if (current !== undefined) c.files[current] += `${lines[i]}\n`;
  }
  if (!Object.keys(c.files).length) c.line = false;
  if (!c.args.length || !c.expect.length) throw new Error(`${name}: a case needs args: and expect:`);
  return c;
}

/**
 * Writes a case's files. Special names: `dir/` a directory; `mkfifo:NAME` a FIFO; `big:NAME:BYTES` a
 * file of that many bytes of YAML comment; `long:NAME:BYTES` one INI host line that long, malformed.
 */
export function materialise(c: CorpusCase, dir: string, inventory: string): string[] {
  mkdirSync(dir, { recursive: true });
  for (const [spec, text] of Object.entries(c.files)) {
    const [kind, rel, size] = spec.includes(':') ? spec.split(':') as [string, string, string?] : ['', spec];
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    if (rel.endsWith('/')) mkdirSync(file, { recursive: true });
    else if (kind === 'mkfifo') execFileSync('mkfifo', ['--', file]);
    else if (kind === 'big') writeFileSync(file, `# ${'x'.repeat(78)}\n`.repeat(Math.ceil(Number(size) / 81)).slice(0, Number(size)));
    else if (kind === 'long') writeFileSync(file, `${'h'.repeat(Number(size))} a="unclosed\n`);
    else writeFileSync(file, text);
  }
  return c.args.map((a) => a.replaceAll('$DIR', dir).replaceAll('$INV', inventory));
}

export interface CaseResult { code: number; stdout: string; stderr: string; ms: number; maxRssKb: number; hung?: boolean }

/** A pool of in-process CLI workers; `run` resolves with the result or a hang after `timeoutMs`. */
export function workerPool(size: number, timeoutMs: number) {
  const script = new URL('./corpus-worker.js', import.meta.url).pathname;
  const idle: ChildProcess[] = [];
  const waiting: ((w: ChildProcess) => void)[] = [];
  let nextId = 0;
  const spawn = () => fork(script, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--max-old-space-size=1024'] });
  for (let k = 0; k < size; k++) idle.push(spawn());
  const take = () => new Promise<ChildProcess>((r) => (idle.length ? r(idle.pop()!) : waiting.push(r)));
  const give = (w: ChildProcess) => (waiting.length ? waiting.shift()!(w) : idle.push(w));
  return {
    async run(argv: string[], cwd: string): Promise<CaseResult> {
      const w = await take();
      const id = nextId++;
      return new Promise<CaseResult>((resolve) => {
        const done = (r: CaseResult, replace: boolean) => {
          clearTimeout(timer);
          w.off('message', onMessage);
          w.off('exit', onExit);
          if (replace) w.kill('SIGKILL');
          give(replace ? spawn() : w);
          resolve(r);
        };
        const onMessage = (m: CaseResult & { id: number }) => m.id === id && done(m, false);
        const onExit = (code: number | null, signal: string | null) => done({ code: 250, stdout: '', stderr: `worker died (${code ?? signal})`, ms: 0, maxRssKb: 0 }, true);
        const timer = setTimeout(() => done({ code: -1, stdout: '', stderr: `no answer in ${timeoutMs} ms`, ms: timeoutMs, maxRssKb: 0, hung: true }, true), timeoutMs);
        w.on('message', onMessage);
        w.on('exit', onExit);
        w.send({ id, argv, cwd });
      });
    },
    close() {
      for (const w of idle) w.kill('SIGKILL');
    },
  };
}
