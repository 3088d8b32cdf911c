// How any failure leaves the CLI: one clear line (stack only with -vvv) and Ansible's exit codes.
import { BadInputError, HostwireError } from '../errors.js';
import { EXIT } from '../engine/runner/run-options.js';
import { maskText } from '../vault/secrets.js';

export function reportError(err: unknown, verbosity: number): number {
  const write = (s: string) => process.stderr.write(maskText(s) + '\n');
  if (err instanceof BadInputError) {
    write(`ERROR! ${err.message}`);
    if (verbosity >= 3 && err.stack) write(err.stack);
    return EXIT.badInput;
  }
  if (err instanceof HostwireError) {
    write(`ERROR! ${err.message}`);
    if (verbosity >= 3 && err.stack) write(err.stack);
    return err.code === 'interrupted' ? EXIT.interrupted : err.code === 'transport' ? EXIT.unreachable : EXIT.internal;
  }
  const e = err as Error;
  write(`ERROR! internal error: ${e?.message ?? String(err)}${verbosity >= 3 ? '' : ' (run with -vvv for details)'}`);
  if (verbosity >= 3 && e?.stack) write(e.stack);
  return EXIT.internal;
}
