#!/usr/bin/env node
// hostwire's command line: run, inventory, facts, lab, test (the commands live in program.ts).
import { runCli } from './program.js';

// A reader that stops early (`hostwire inventory --list | head`) is not an error: end quietly with
// the status a SIGPIPE'd program has (141), not with an unhandled EPIPE and its stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(141);
});

process.exitCode = await runCli(process.argv);
