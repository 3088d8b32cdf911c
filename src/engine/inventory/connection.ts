// How to reach a host, read from its merged vars with Ansible's names and aliases
// (ansible_host / ansible_ssh_host, ansible_port / ansible_ssh_port, ...). Jump hosts come from
// ansible_ssh_common_args / ansible_ssh_extra_args (`-o ProxyJump=`, `-J`); ProxyCommand runs
// an arbitrary local program and is refused.
import { homedir, userInfo } from 'node:os';
import { BadInputError } from '../../errors.js';
import { shlexSplit, ShlexError } from './shlex.js';
import type { Vars } from './types.js';

export interface JumpHost {
  host: string;
  port: number;
  user: string;
}

export interface ConnectionSettings {
  host: string;
  port: number;
  user: string;
  privateKeyFile?: string;
  connection: 'ssh' | 'local';
  become: boolean;
  becomeUser?: string;
  proxyJump?: JumpHost;
  knownHostsFile?: string;
  strictHostKeyChecking?: 'yes' | 'no' | 'accept-new';
  /** ansible_timeout / ansible_ssh_timeout (seconds) as milliseconds: the SSH handshake's limit. */
  connectTimeoutMs?: number;
}

const TRUE = ['y', 'yes', 'on', '1', 'true', 't'];
const FALSE = ['n', 'no', 'off', '0', 'false', 'f'];

function where(vars: Vars): string {
  return typeof vars.inventory_hostname === 'string' ? `host ${vars.inventory_hostname}: ` : '';
}

/** Ansible's boolean(): yes/no, true/false, on/off, 1/0, y/n, t/f in any case. */
export function toBool(value: unknown, name: string, vars: Vars): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
  const s = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (s !== undefined && TRUE.includes(s)) return true;
  if (s !== undefined && FALSE.includes(s)) return false;
  throw new BadInputError(`${where(vars)}${name} is ${JSON.stringify(value)}; expected a boolean (true/false, yes/no)`);
}

function str(vars: Vars, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = vars[n];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
    throw new BadInputError(`${where(vars)}${n} is a ${Array.isArray(v) ? 'list' : typeof v}; expected a string`);
  }
  return undefined;
}

export function toPort(value: string, name: string, vars: Vars): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 65535) {
    throw new BadInputError(`${where(vars)}${name} is ${JSON.stringify(value)}; expected a port number 1-65535`);
  }
  return n;
}

const expandHome = (p: string): string => (p === '~' || p.startsWith('~/') ? homedir() + p.slice(1) : p);

function defaultUser(): string {
  return process.env.USER || userInfo().username;
}

/** `[user@]host[:port]` or `ssh://[user@]host[:port]`, one hop. */
export function parseJump(spec: string, vars: Vars): JumpHost {
  if (spec.includes(',')) {
    throw new BadInputError(`${where(vars)}ProxyJump '${spec}' has several hops; expected a single jump host`);
  }
  const m = /^(?:ssh:\/\/)?(?:([^@\s]+)@)?(\[[^\]]+\]|[^:@\s]+)(?::(\d+))?$/.exec(spec.trim());
  if (!m) throw new BadInputError(`${where(vars)}ProxyJump '${spec}' is not understood; expected [user@]host[:port]`);
  const host = m[2]!.replace(/^\[|\]$/g, '');
  return { host, port: m[3] ? toPort(m[3], 'ProxyJump port', vars) : 22, user: m[1] ?? defaultUser() };
}

interface SshArgs {
  proxyJump?: JumpHost;
  knownHostsFile?: string;
  strictHostKeyChecking?: 'yes' | 'no' | 'accept-new';
}

/** Read the options hostwire understands from ssh command-line arguments. */
export function parseSshArgs(args: string, vars: Vars, name = 'ansible_ssh_common_args'): SshArgs {
  let words: string[];
  try {
    words = shlexSplit(args);
  } catch (e) {
    if (e instanceof ShlexError) throw new BadInputError(`${where(vars)}${name} cannot be split: ${e.message}`);
    throw e;
  }
  const out: SshArgs = {};
  const option = (text: string): void => {
    const m = /^([A-Za-z]+)\s*(?:=\s*|\s+)(.*)$/s.exec(text.trim());
    if (!m) throw new BadInputError(`${where(vars)}${name}: ssh option '${text}' is not understood; expected -o Key=Value`);
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'proxycommand') {
      throw new BadInputError(
        `${where(vars)}${name} uses ProxyCommand, which hostwire does not run (it would start a local program); expected -o ProxyJump=user@host:port or -J user@host:port`,
      );
    }
    if (key === 'proxyjump') out.proxyJump = parseJump(value, vars);
    else if (key === 'userknownhostsfile') out.knownHostsFile = expandHome(value.split(/\s+/)[0]!);
    else if (key === 'stricthostkeychecking') {
      const v = value.toLowerCase();
      if (v === 'accept-new') out.strictHostKeyChecking = 'accept-new';
      else if (['yes', 'ask', 'true'].includes(v)) out.strictHostKeyChecking = 'yes';
      else if (['no', 'off', 'false'].includes(v)) out.strictHostKeyChecking = 'no';
      else throw new BadInputError(`${where(vars)}${name}: StrictHostKeyChecking=${value}; expected yes, no or accept-new`);
    }
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-o' || w === '-J') {
      const next = words[++i];
      if (next === undefined) throw new BadInputError(`${where(vars)}${name}: '${w}' at the end; expected a value after it`);
      if (w === '-o') option(next);
      else out.proxyJump = parseJump(next, vars);
    } else if (w.startsWith('-o')) option(w.slice(2));
    else if (w.startsWith('-J')) out.proxyJump = parseJump(w.slice(2), vars);
  }
  return out;
}

/** Typed connection settings from a host's merged vars (see hostVars()). */
export function connectionSettings(vars: Vars): ConnectionSettings {
  const connection = str(vars, 'ansible_connection') ?? 'ssh';
  if (!['ssh', 'local', 'smart', 'paramiko'].includes(connection)) {
    throw new BadInputError(`${where(vars)}ansible_connection is '${connection}'; expected ssh or local`);
  }
  const host = str(vars, 'ansible_host', 'ansible_ssh_host') ?? str(vars, 'inventory_hostname');
  if (!host) throw new BadInputError('no ansible_host nor inventory_hostname; expected the host to connect to');
  const portText = str(vars, 'ansible_port', 'ansible_ssh_port');
  const out: ConnectionSettings = {
    host,
    port: portText === undefined ? 22 : toPort(portText, 'ansible_port', vars),
    user: str(vars, 'ansible_user', 'ansible_ssh_user') ?? defaultUser(),
    connection: connection === 'local' ? 'local' : 'ssh',
    become: vars.ansible_become === undefined ? false : toBool(vars.ansible_become, 'ansible_become', vars),
  };
  const key = str(vars, 'ansible_ssh_private_key_file', 'ansible_private_key_file');
  if (key) out.privateKeyFile = expandHome(key);
  const becomeUser = str(vars, 'ansible_become_user');
  if (becomeUser) out.becomeUser = becomeUser;
  for (const name of ['ansible_ssh_common_args', 'ansible_ssh_extra_args']) {
    const args = str(vars, name);
    if (args) Object.assign(out, parseSshArgs(args, vars, name));
  }
  const timeout = str(vars, 'ansible_timeout', 'ansible_ssh_timeout');
  if (timeout !== undefined) {
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new BadInputError(`${where(vars)}ansible_timeout is '${timeout}'; expected a number of seconds`);
    out.connectTimeoutMs = seconds * 1000;
  }
  const hkc = vars.ansible_host_key_checking ?? vars.ansible_ssh_host_key_checking;
  if (hkc !== undefined && out.strictHostKeyChecking === undefined) {
    out.strictHostKeyChecking = toBool(hkc, 'ansible_host_key_checking', vars) ? 'yes' : 'no';
  }
  return out;
}
