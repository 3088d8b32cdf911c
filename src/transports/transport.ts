// The one interface every way of reaching a host implements (ssh, local).
// A transport is opened once per host and reused by every task of the run.

export interface BecomeOptions {
  /** Run the command through sudo (non-interactive unless a password is given). */
  enabled: boolean;
  user?: string;
  /** Supplied once by the user; never logged. */
  password?: string;
}

export interface ExecOptions {
  /** Bytes written to the command's stdin, then stdin is closed. */
  stdin?: string | Buffer;
  cwd?: string;
  env?: Record<string, string>;
  become?: BecomeOptions;
  /** Abort the command after this many milliseconds (rc 124, like timeout(1)). */
  timeoutMs?: number;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** Exit status; 128+n when killed by signal n. */
  code: number;
}

export interface WriteFileOptions {
  /** Octal string like '0644'; kept from the existing file when omitted. */
  mode?: string;
  owner?: string;
  group?: string;
  become?: BecomeOptions;
  /**
   * A shell command run on the new content before it replaces the file (Ansible's `validate`), naming
   * the temp file as "$t": built by modules/kit/validate-command.ts (every word quoted). When it fails
   * the file is left as it was and the write fails with its output.
   */
  validate?: string;
}

export interface TransportStats {
  /** Remote commands started (each exec or file write counts one). */
  execs: number;
  /** Bytes sent to the host (command text + stdin). */
  bytesSent: number;
  /** Connections opened (1 for a healthy run; more after reconnects). */
  connects: number;
}

export interface Transport {
  /** Inventory name of the host. */
  readonly name: string;
  readonly stats: TransportStats;
  connect(): Promise<void>;
  /** Run `command` with /bin/sh -c on the host. Never throws for a non-zero exit; throws TransportError when unreachable. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Atomically replace `path` with `content`: temp file in the same directory, then rename. */
  writeFile(path: string, content: string | Buffer, options?: WriteFileOptions): Promise<void>;
  close(): Promise<void>;
}
