// A child process that runs hostwire command lines in-process, one at a time, for the bad-input
// corpus: one Node start for hundreds of cases. Each case gets its own cwd; stdout/stderr are
// captured; the answer carries the exit code and the process's peak RSS so far (a bound for the case).
import { runCli } from '../../src/cli/program.js';

interface Job { id: number; argv: string[]; cwd: string }

let captured = { out: '', err: '' };
const capture = (which: 'out' | 'err') => ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  captured[which] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
  cb?.();
  return true;
}) as typeof process.stdout.write;
process.stdout.write = capture('out');
process.stderr.write = capture('err');
// A case that calls process.exit must not end the worker; it is reported like any exit code.
class ExitCalled extends Error { constructor(readonly code: number) { super(`process.exit(${code})`); } }
process.exit = ((code?: number) => { throw new ExitCalled(code ?? 0); }) as typeof process.exit;

process.on('message', (job: Job) => void runJob(job));

async function runJob(job: Job): Promise<void> {
  captured = { out: '', err: '' };
  process.chdir(job.cwd);
  const started = Date.now();
  let code: number;
  try {
    code = await runCli(['node', 'hostwire', ...job.argv]);
  } catch (err) {
    code = err instanceof ExitCalled ? err.code : 250;
    if (!(err instanceof ExitCalled)) captured.err += `UNCAUGHT ${(err as Error)?.stack ?? String(err)}\n`;
  }
  const answer = { id: job.id, code, stdout: captured.out, stderr: captured.err, ms: Date.now() - started, maxRssKb: process.resourceUsage().maxRSS };
  process.send!(answer);
}
