// A command kept running while the caller talks to it (the host lock holds one for the whole run).
// Both ssh and local transports implement it next to the plain Transport interface.
import type { Readable, Writable } from 'node:stream';
import type { ExecResult, Transport } from './transport.js';

export interface RunningCommand {
  stdout: Readable;
  stdin: Writable;
  /** Settles when the command ends (or its connection is gone). */
  done: Promise<ExecResult>;
  /** Stop it now (close the channel / kill the process). */
  kill(): void;
}

export interface StreamingTransport extends Transport {
  start(command: string): Promise<RunningCommand>;
}

export function isStreamingTransport(t: Transport): t is StreamingTransport {
  return typeof (t as Partial<StreamingTransport>).start === 'function';
}
