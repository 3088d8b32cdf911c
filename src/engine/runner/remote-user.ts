// remote_user as Ansible applies it (PlayContext.set_task_and_variable_override): the host's
// ansible_user / ansible_ssh_user wins, then the keyword (task over block over role entry, else the
// play's), then ansible.cfg / ANSIBLE_REMOTE_USER, then the controller's user. hostwire keeps one
// connection per host and login: a play logging in as another user gets its own connection (and
// lock), a task as another user an extra connection to the same host for that task.
import { renderValue, type Vars } from '../vars/index.js';
import type { SourceLoc } from '../../errors.js';
import type { Transport } from '../../transports/transport.js';
import { newHostState, type HostState } from './host-state.js';

/** The host names its login itself: keywords do not apply. */
export const hostSetsUser = (vars: Vars): boolean => vars.ansible_user !== undefined || vars.ansible_ssh_user !== undefined;

/** The keyword's user for this host (rendered with `vars`), or undefined when the host's own wins or none is set. */
export function keywordUser(keyword: string | undefined, vars: Vars, loc: SourceLoc): string | undefined {
  if (keyword === undefined || hostSetsUser(vars)) return undefined;
  const user = String(renderValue(keyword, vars, loc)).trim();
  return user === '' ? undefined : user;
}

/** Connection vars with the play keyword's user filled in where the host sets none (config defaults come after). */
export function withRemoteUser(vars: Vars, keyword: string | undefined, loc: SourceLoc, playVars: Vars = {}): Vars {
  const user = keywordUser(keyword, { ...playVars, ...vars }, loc);
  return user === undefined ? vars : { ...vars, ansible_user: user };
}

/**
 * Extra connections for tasks that log in as another user than their host's connection: one per
 * (host, user), kept for the run, never locked (the host's own connection holds the run lock).
 */
export class UserConnections {
  private states = new Map<string, HostState>();

  constructor(private open: (h: HostState, user: string) => Promise<Transport>) {}

  /** A state that acts on `h`'s machine as `user` (its own probe cache, deferred steps and transport). */
  async hostAs(h: HostState, user: string): Promise<HostState> {
    const key = `${h.name}\0${user}`;
    let s = this.states.get(key);
    if (!s) {
      s = newHostState(h.name, h.inventoryVars);
      s.connectedAs = user;
      this.states.set(key, s);
    }
    s.transport ??= await this.open(h, user);
    return s;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.states.values()].map((s) => s.transport?.close()));
  }
}
