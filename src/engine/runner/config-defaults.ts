// ansible.cfg / ANSIBLE_* defaults applied where Ansible applies them: connection settings below the
// inventory's ansible_* vars, become and gathering for plays that do not set them.
import type { PlayDef, Vars } from '../playbook/types.js';
import type { HostState } from './host-state.js';

export interface ConnectionDefaults {
  remoteUser?: string;
  privateKeyFile?: string;
  timeoutSec?: number;
}

export interface PlayDefaults {
  become?: boolean;
  becomeUser?: string;
  gathering?: 'implicit' | 'explicit' | 'smart';
}

/**
 * Vars a connection is read from, with the config's values filled in where the host sets none of
 * Ansible's names for them (ansible_user / ansible_ssh_user ...); never seen as host vars.
 */
export function withConnectionDefaults(d: ConnectionDefaults | undefined, vars: Vars): Vars {
  const out: Vars = { ...vars };
  const unset = (...names: string[]) => names.every((n) => vars[n] === undefined);
  if (d?.remoteUser !== undefined && unset('ansible_user', 'ansible_ssh_user')) out.ansible_user = d.remoteUser;
  if (d?.privateKeyFile !== undefined && unset('ansible_ssh_private_key_file', 'ansible_private_key_file')) out.ansible_private_key_file = d.privateKeyFile;
  if (d?.timeoutSec !== undefined && unset('ansible_timeout', 'ansible_ssh_timeout')) out.ansible_timeout = String(d.timeoutSec);
  return out;
}

/** Ansible's DEFAULT_BECOME* and DEFAULT_GATHERING for a play that does not say (smart: not again once a host has facts). */
export function applyPlayDefaults(play: PlayDef, d: PlayDefaults | undefined, hosts: HostState[]): void {
  if (!d) return;
  if (play.become === undefined && d.become !== undefined) play.become = d.become;
  if (play.becomeUser === undefined && d.becomeUser !== undefined) play.becomeUser = d.becomeUser;
  if (play.gatherFactsSet) {
    if (d.gathering === 'smart' && play.gatherFacts) play.gatherFacts = hosts.some((h) => Object.keys(h.facts).length === 0);
    return;
  }
  if (d.gathering === 'explicit') play.gatherFacts = false;
  else if (d.gathering === 'smart') play.gatherFacts = hosts.some((h) => Object.keys(h.facts).length === 0);
}
