// Reaching lab hosts with the system ssh client from inside the lab namespace.
import { spawn } from 'node:child_process';
import { run, type RunResult } from './run.js';
import type { HostState, LabState } from './state.js';

/** ssh options that pin the lab key and the lab's known_hosts (host keys checked strictly). */
export function labSshOptions(state: LabState): string[] {
  return [
    '-i', state.keyFile,
    '-o', 'IdentitiesOnly=yes',
    '-o', `UserKnownHostsFile=${state.knownHostsFile}`,
    '-o', 'GlobalKnownHostsFile=/dev/null',
    '-o', 'StrictHostKeyChecking=yes',
    '-o', 'LogLevel=ERROR',
  ];
}

/** argv for `ip netns exec hw-<lab> ssh ... root@IP [command]`. */
export function labSshArgv(state: LabState, host: HostState, command: string[] = [], extra: string[] = []): string[] {
  return ['ip', 'netns', 'exec', state.netns, 'ssh', ...labSshOptions(state), ...extra, `root@${host.ip}`, ...command];
}

/** Run a command on a lab host, capturing output; exit code 255 means ssh itself failed. */
export async function labExec(state: LabState, host: HostState, command: string, timeoutMs = 30_000): Promise<RunResult> {
  const [cmd, ...args] = labSshArgv(state, host, [command], ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=2']);
  return run(cmd!, args, { check: false, timeoutMs });
}

/** Interactive (or one command) session inheriting this process's stdio; resolves to ssh's exit code. */
export function labSshInteractive(state: LabState, host: HostState, command: string[] = []): Promise<number> {
  const tty = command.length === 0 && process.stdin.isTTY ? ['-t'] : [];
  const [cmd, ...args] = labSshArgv(state, host, command, tty);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd!, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? 9 : 0)));
  });
}
