// hostwire's command line as a function: argv in, exit code out. main.ts is the process around it;
// the bad-input corpus runs hundreds of cases through this in one process.
import { Command, CommanderError } from 'commander';
import { reportError } from './errors.js';

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
  doc: async () => (await import('./doc.js')).registerDocCommand,
  completion: async () => (await import('./completion.js')).registerCompletionCommand,
};
const ALIASES: Record<string, string> = { facts: 'inventory' };

/** Runs one command line (argv as process.argv: node, script, args...) and returns its exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const program = new Command();
  program
    .name('hostwire')
    .description('Ansible-style host provisioning for Kubernetes/OpenShift node networking')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError();
  const word = argv.slice(2).find((a) => !a.startsWith('-'));
  const only = word && (COMMANDS[word] ? word : ALIASES[word]);
  // `--version` alone needs no command: loading them all would cost it ~0.2 s of CPU.
  const versionOnly = !word && argv.slice(2).some((a) => a === '-V' || a === '--version') && !argv.slice(2).some((a) => a === '-h' || a === '--help');
  const wanted = versionOnly ? [] : only && only !== 'completion' ? [only] : Object.keys(COMMANDS);
  for (const register of await Promise.all(wanted.map((k) => COMMANDS[k]!()))) register(program);
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(argv);
    return Number(process.exitCode ?? 0);
  } catch (err) {
    // --help and --version exit 0; every other parse error is bad input (5), as ansible-playbook does.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 5;
    // A command that throws (lab names, bad input found outside `run`) ends the same way `run` does.
    return reportError(err, argv.filter((a) => /^-v+$/.test(a)).reduce((n, a) => n + a.length - 1, 0));
  } finally {
    process.exitCode = before;
  }
}
