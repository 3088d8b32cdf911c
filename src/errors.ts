// One error family for the whole tool. The CLI prints `message` (and `cause` only with -vvv);
// nothing that reaches a user should need a stack trace to be understood.

/** Where something came from in a user's file; line and column are 1-based. */
export interface SourceLoc {
  file: string;
  line?: number;
  column?: number;
}

export function formatLoc(loc?: SourceLoc): string {
  if (!loc) return '';
  let s = loc.file;
  if (loc.line !== undefined) s += `:${loc.line}`;
  if (loc.line !== undefined && loc.column !== undefined) s += `:${loc.column}`;
  return s;
}

export type ErrorCode = 'bad-input' | 'command-failed' | 'transport' | 'probe-parse' | 'internal' | 'interrupted';

export class HostwireError extends Error {
  readonly code: ErrorCode;
  readonly host?: string;
  constructor(code: ErrorCode, message: string, options?: { host?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HostwireError';
    this.code = code;
    this.host = options?.host;
  }
}

/** Bad user input: a file, a position, what was expected. Exit code 5. */
export class BadInputError extends HostwireError {
  readonly loc?: SourceLoc;
  constructor(message: string, loc?: SourceLoc, cause?: unknown) {
    super('bad-input', loc ? `${formatLoc(loc)}: ${message}` : message, { cause });
    this.name = 'BadInputError';
    this.loc = loc;
  }
}

/**
 * A task file or role that is not there, or a file including itself without end: a dynamic include reaching
 * one fails the host (Ansible's AnsibleError), where other load errors end the run (its AnsibleParserError).
 */
export class IncludeTargetError extends BadInputError {}

/** A remote or local command exited non-zero where success was required. */
export class CommandError extends HostwireError {
  readonly command: string;
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  constructor(r: { command: string; exitCode: number; stdout: string; stderr: string; host?: string }) {
    const detail = r.stderr.trim() || r.stdout.trim();
    super('command-failed', `command failed (rc=${r.exitCode}): ${r.command}${detail ? `\n${detail}` : ''}`, { host: r.host });
    this.name = 'CommandError';
    this.command = r.command;
    this.exitCode = r.exitCode;
    this.stdout = r.stdout;
    this.stderr = r.stderr;
  }
}

/** The host cannot be reached or the connection broke. Marks the host unreachable. */
export class TransportError extends HostwireError {
  constructor(message: string, host?: string, cause?: unknown) {
    super('transport', message, { host, cause });
    this.name = 'TransportError';
  }
}

/** A probe's output did not look like what its parser expects; keeps the raw output. */
export class ProbeParseError extends HostwireError {
  readonly raw: string;
  constructor(message: string, raw: string, cause?: unknown) {
    super('probe-parse', message, { cause });
    this.name = 'ProbeParseError';
    this.raw = raw;
  }
}
