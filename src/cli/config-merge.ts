// The command line over the environment over ansible.cfg, as Ansible merges them: a flag given wins,
// otherwise the configured value, otherwise hostwire's default.
import { loadConfig, type HostwireConfig } from '../config/index.js';
import { defaultRolesPath } from '../config/settings.js';
import type { ConnectionDefaults, PlayDefaults } from '../engine/runner/run-playbook.js';
import { parseForks } from './run-options.js';

export interface CliConfigFlags {
  inventory: string[];
  rolesPath?: string[];
  forks?: string;
  hostKeyChecking?: 'strict' | 'accept-new' | 'off';
  vaultPasswordFile?: string[];
  askBecomePass?: boolean;
  lockTimeout?: string;
}

export interface MergedSettings {
  config: HostwireConfig;
  inventory: string[];
  rolesPath: string[];
  forks: number;
  hostKeyChecking?: 'strict' | 'accept-new' | 'off';
  vaultPasswordFiles: string[];
  askBecomePass: boolean;
  lockTimeout?: string;
  connectionDefaults: ConnectionDefaults;
  playDefaults: PlayDefaults;
  /** ssh_args' ControlPersist in seconds (0: connections are not kept). */
  connectionPersistSec: number;
}

/** hostwire's own default when neither flag nor configuration says (Ansible's is 5). */
const DEFAULT_FORKS = 50;

export function mergeSettings(f: CliConfigFlags, config: HostwireConfig = loadConfig()): MergedSettings {
  for (const w of config.warnings) process.stderr.write(`[WARNING]: ${w}\n`);
  const hostKeyFromAnsible = config.hostKeyChecking === undefined ? undefined : config.hostKeyChecking ? 'strict' : 'off';
  return {
    config,
    inventory: f.inventory.length ? f.inventory : config.inventory ?? [],
    rolesPath: [...(f.rolesPath ?? []), ...(config.rolesPath ?? defaultRolesPath())],
    forks: f.forks !== undefined ? parseForks(f.forks) : config.forks ?? DEFAULT_FORKS,
    hostKeyChecking: f.hostKeyChecking ?? config.hostKeyPolicy ?? hostKeyFromAnsible,
    // Ansible adds the configured file to those given on the command line.
    vaultPasswordFiles: [...(f.vaultPasswordFile ?? []), ...(config.vaultPasswordFile ? [config.vaultPasswordFile] : [])],
    askBecomePass: Boolean(f.askBecomePass || config.becomeAskPass),
    lockTimeout: f.lockTimeout ?? (config.lockTimeout === undefined ? undefined : String(config.lockTimeout)),
    connectionDefaults: { remoteUser: config.remoteUser, privateKeyFile: config.privateKeyFile, timeoutSec: config.timeout },
    connectionPersistSec: config.connectionPersist ?? 0,
    playDefaults: { become: config.become, becomeUser: config.becomeUser, gathering: config.gathering },
  };
}
