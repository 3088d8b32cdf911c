// Runs one command on an open ssh2 connection: opens the exec channel, streams stdin with
// backpressure handled by ssh2's window, collects stdout/stderr, enforces a timeout.
import type { Client, ClientChannel } from 'ssh2';
import { exitCodeOf, TIMEOUT_EXIT_CODE } from './exit-code.js';

/** The exit status, recorded the moment ssh2 emits it (see openExecChannel). */
export const exitStatusOf = (ch: ClientChannel): number | undefined => (ch as ClientChannel & { hwExit?: number }).hwExit;

/** Opens an exec channel; with `timeoutMs`, a server that never answers fails with code ETIMEDOUT. */
export function openExecChannel(client: Client, command: string, timeoutMs?: number): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = timeoutMs ? setTimeout(() => {
      settled = true;
      reject(Object.assign(new Error(`no answer to the channel request in ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, timeoutMs) : undefined;
    try {
      client.exec(command, (err, ch) => {
        if (timer) clearTimeout(timer);
        if (settled) { if (!err) ch.close(); return; }
        settled = true;
        if (err) return reject(err);
        // A fast command's exit-status can arrive in the same TCP read as the exec reply: ssh2 then
        // emits 'exit' synchronously, before any listener added after an await. Record it now.
        ch.on('exit', (c: number | null, signal?: string) => {
          (ch as ClientChannel & { hwExit?: number }).hwExit = exitCodeOf(c, signal);
        });
        resolve(ch);
      });
    } catch (e) {
      if (timer) clearTimeout(timer);
      reject(e);
    }
  });
}

export interface ChannelResult {
  stdout: string;
  stderr: string;
  code: number;
  /** False when the channel closed without an exit status (the connection died mid-command). */
  exited: boolean;
}

export function runOnChannel(ch: ClientChannel, stdin: Buffer | undefined, timeoutMs?: number): Promise<ChannelResult> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let code: number | undefined = exitStatusOf(ch);
    let timedOut = false;
    ch.on('data', (d: Buffer) => out.push(d));
    ch.stderr.on('data', (d: Buffer) => err.push(d));
    let closed = false;
    let done = false;
    ch.on('exit', (c: number | null, signal?: string) => {
      code = exitCodeOf(c, signal);
      if (closed) finish();
    });
    ch.on('error', () => {});
    const finish = () => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        code: timedOut ? TIMEOUT_EXIT_CODE : code ?? 255,
        exited: timedOut || code !== undefined,
      });
    };
    // Backstop only: do not wait for the server's close, it comes when the command ends.
    const timer = timeoutMs
      ? setTimeout(() => { timedOut = true; ch.close(); finish(); }, timeoutMs)
      : undefined;
    // Under load the exit-status can be processed just after the close: give it a moment.
    ch.on('close', () => {
      closed = true;
      code ??= exitStatusOf(ch);
      if (code !== undefined) finish();
      else setTimeout(finish, 250);
    });
    // A fast command may have closed the channel already: ending it again only builds an error.
    if (!ch.writable) return;
    if (stdin && stdin.length) ch.end(stdin);
    else ch.end();
  });
}
