// Runs `hostwire subnets ...` in this process (the CLI start costs seconds on a busy machine) and
// captures what it prints and its exit code.
import { Command } from 'commander';
import { registerSubnetsCommand } from '../../src/cli/subnets.js';

export async function runSubnets(args: string[]): Promise<{ out: string; err: string; code: number }> {
  const program = new Command().exitOverride();
  registerSubnetsCommand(program);
  let out = '';
  let err = '';
  const w = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const saved = process.exitCode;
  process.exitCode = 0;
  process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
  try {
    await program.parseAsync(['node', 'hostwire', 'subnets', ...args]);
  } finally {
    process.stdout.write = w.out;
    process.stderr.write = w.err;
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = saved;
  return { out, err, code };
}
