#!/usr/bin/env node
// hostwire's command line: run, inventory, facts, lab, test (the commands live in program.ts).
import { setTraceMask } from '../transports/trace.js';
import { maskText } from '../vault/secrets.js';
import { runCli } from './program.js';

// A reader that stops early (`hostwire inventory --list | head`) is not an error: end quietly with
// the status a SIGPIPE'd program has (141), not with an unhandled EPIPE and its stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(141);
});

// HOSTWIRE_TRACE=1 lines show each command's start with the vault's secrets masked.
setTraceMask(maskText);

process.exitCode = await runCli(process.argv);
