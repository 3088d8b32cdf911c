// The CLI process around runCli: EPIPE, the trace mask, the exit code. Shared by dist/src/cli/main.js
// and the bundled bin (scripts/bundle.js), which is CommonJS: no top-level await here.
import { setTraceMask, trace } from '../transports/trace.js';
import { maskText } from '../vault/secrets.js';
import { runCli } from './program.js';
import { KEEPER_WORD } from '../transports/keeper/index.js';

export function startCli(argv: string[]): Promise<void> {
  // The connection keeper a run started (src/transports/keeper): not a command users type.
  if (argv[2] === KEEPER_WORD) return import('../transports/keeper/server.js').then((m) => m.runKeeperFromArgs(argv.slice(3)));
  // A reader that stops early (`hostwire inventory --list | head`) is not an error: end quietly with
  // the status a SIGPIPE'd program has (141), not with an unhandled EPIPE and its stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(141);
  });
  // HOSTWIRE_TRACE=1 lines show each command's start with the vault's secrets masked.
  setTraceMask(maskText);
  trace('controller', 'cli loaded (since the process began)', 0);
  return runCli(argv).then((code) => {
    process.exitCode = code;
  });
}
