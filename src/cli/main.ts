#!/usr/bin/env node
// hostwire's command line: run, inventory, facts, lab, test.
import { Command, CommanderError } from 'commander';
import { registerRunCommand } from './run.js';
import { registerInventoryCommands } from './inventory.js';
import { registerLabCommands } from '../lab/cli.js';
import { registerTestCommand } from './test.js';
import { registerVaultCommands } from './vault.js';
import { registerInitCommand } from './init.js';
import { registerGraphCommand } from './graph.js';

const program = new Command();
program
  .name('hostwire')
  .description('Ansible-style host provisioning for Kubernetes/OpenShift node networking')
  .version('0.1.0')
  .exitOverride()
  .showHelpAfterError();

registerRunCommand(program);
registerInventoryCommands(program);
registerLabCommands(program);
registerTestCommand(program);
registerVaultCommands(program);
registerInitCommand(program);
registerGraphCommand(program);
(await import('./subnets.js')).registerSubnetsCommand(program);
(await import('./completion.js')).registerCompletionCommand(program);

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
