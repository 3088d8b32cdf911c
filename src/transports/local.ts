// Local transport: commands run on the controller with /bin/sh -c through execa; same
// interface and exit-code conventions as ssh so modules never care where they run.
import { spawn } from 'node:child_process';
import { chmod, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CommandError } from '../errors.js';
import { exitCodeOf, TIMEOUT_EXIT_CODE } from './exit-code.js';
import { buildHostCommand } from './host-command.js';
import { maskSecrets } from './quote.js';
import type { RunningCommand, StreamingTransport } from './streaming.js';
import type { ExecOptions, ExecResult, TransportStats, WriteFileOptions } from './transport.js';
import { buildWriteScript, isTempNameOf, tempPathFor, validateMode } from './write-script.js';

export class LocalTransport implements StreamingTransport {
  readonly stats: TransportStats = { execs: 0, bytesSent: 0, connects: 0 };
  /** Long-running commands (start): closing the transport ends them, as closing an ssh connection does. */
  private readonly running = new Set<RunningCommand>();
  constructor(readonly name: string = 'localhost') {}

  async connect(): Promise<void> {
    if (this.stats.connects === 0) this.stats.connects = 1;
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const { command: line, stdin } = buildHostCommand(command, options);
    const input = stdin ?? Buffer.alloc(0);
    this.stats.execs++;
    this.stats.bytesSent += Buffer.byteLength(line) + input.length;
    // Loaded on first use: execa costs ~0.1-0.3 s of start-up that ssh-only runs never need.
    const { execa } = await import('execa');
    const r = await execa('/bin/sh', ['-c', line], {
      input, reject: false, stripFinalNewline: false, // timeout(1) in the command does the killing; execa's timer is a backstop.
      timeout: options.timeoutMs && options.timeoutMs + 5000, killSignal: 'SIGKILL',
    });
    const secrets = [options.become?.password];
    return {
      stdout: maskSecrets(String(r.stdout ?? ''), secrets),
      stderr: maskSecrets(String(r.stderr ?? ''), secrets),
      code: r.timedOut ? TIMEOUT_EXIT_CODE : exitCodeOf(r.exitCode, r.signal),
    };
  }

  async writeFile(path: string, content: string | Buffer, options: WriteFileOptions = {}): Promise<void> {
    // Ownership changes, sudo and validate need the shell path; the plain case stays in node.
    if (options.owner || options.group || options.become?.enabled || options.validate !== undefined) {
      const r = await this.exec(buildWriteScript(path, content, options), { stdin: content, become: options.become });
      if (r.code !== 0) throw new CommandError({ command: `write ${path}`, exitCode: r.code, stdout: r.stdout, stderr: r.stderr, host: this.name });
      return;
    }
    this.stats.execs++;
    this.stats.bytesSent += Buffer.byteLength(content);
    const mode = options.mode ? parseInt(validateMode(options.mode), 8) : await stat(path).then((s) => s.mode & 0o7777, () => undefined);
    const tmp = tempPathFor(path);
    try {
      await removeStaleTemps(path);
      await writeFile(tmp, content, { flag: 'wx', mode: 0o600 });
      await chmod(tmp, mode ?? 0o666 & ~process.umask());
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      const err = e as NodeJS.ErrnoException;
      throw new CommandError({ command: `write ${path}`, exitCode: 1, stdout: '', stderr: err.message, host: this.name });
    }
  }

  async start(command: string): Promise<RunningCommand> {
    this.stats.execs++;
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdin.on('error', () => {});
    const done = new Promise<ExecResult>((resolve) => {
      child.on('close', (code, signal) => resolve({ stdout: '', stderr: '', code: exitCodeOf(code, signal) }));
      child.on('error', (e) => resolve({ stdout: '', stderr: e.message, code: 127 }));
    });
    const run: RunningCommand = {
      stdout: child.stdout, stdin: child.stdin, done,
      kill: () => { if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGTERM'); },
    };
    this.running.add(run);
    void done.then(() => this.running.delete(run));
    return run;
  }

  async close(): Promise<void> {
    // Their stdin closes first (a worker then exits on its own), then they are told to stop.
    for (const run of this.running) {
      run.stdin.end();
      run.kill();
    }
  }
}

/** Temps of `path` left by a write that was killed before it could remove them (as the shell path does). */
async function removeStaleTemps(path: string): Promise<void> {
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const n of names) if (isTempNameOf(path, n)) await rm(join(dirname(path), n), { force: true });
}
