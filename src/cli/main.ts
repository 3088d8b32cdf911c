#!/usr/bin/env node
// hostwire's command line: run, inventory, facts, lab, test.
import { Command, CommanderError } from 'commander';

type Register = (program: Command) => void;
// Each command's module loads only when that command runs (the engine's dependencies are heavy and
// start-up counts in every run); help, completion and unknown words load them all.
const COMMANDS: Record<string, () => Promise<Register>> = {
  run: async () => (await import('./run.js')).registerRunCommand,
  inventory: async () => (await import('./inventory.js')).registerInventoryCommands,
  lab: async () => (await import('../lab/cli.js')).registerLabCommands,
  test: async () => (await import('./test.js')).registerTestCommand,
  vault: async () => (await import('./vault.js')).registerVaultCommands,
  init: async () => (await import('./init.js')).registerInitCommand,
  graph: async () => (await import('./graph.js')).registerGraphCommand,
  subnets: async () => (await import('./subnets.js')).registerSubnetsCommand,
  completion: async () => (await import('./completion.js')).registerCompletionCommand,
};
const ALIASES: Record<string, string> = { facts: 'inventory' };

// A reader that stops early (`hostwire inventory --list | head`) is not an error: end quietly with
// the status a SIGPIPE'd program has (141), not with an unhandled EPIPE and its stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(141);
});

const program = new Command();
program
  .name('hostwire')
  .description('Ansible-style host provisioning for Kubernetes/OpenShift node networking')
  .version('0.1.0')
  .exitOverride()
  .showHelpAfterError();

const word = process.argv.slice(2).find((a) => !a.startsWith('-'));
const only = word && (COMMANDS[word] ? word : ALIASES[word]);
const wanted = only && only !== 'completion' ? [only] : Object.keys(COMMANDS);
for (const register of await Promise.all(wanted.map((k) => COMMANDS[k]!()))) register(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version exit 0; every other parse error is bad input (5), as ansible-playbook does.
    process.exitCode = err.exitCode === 0 ? 0 : 5;
  } else {
    process.stderr.write(`ERROR! internal error: ${(err as Error)?.message ?? String(err)}\n`);
    process.exitCode = 250;
  }
}
