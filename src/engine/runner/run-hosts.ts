// The hosts of one run and their lifecycle: a state per inventory host (made when first needed),
// one connection per host kept for the whole run (ssh handshakes bounded), the run locks
// (host-locks.ts: taken per batch, taken again after a reconnect), a controller state for delegates
// outside the inventory, a connection set aside while a play with another connection type runs,
// and closing everything at the end.
import { BadInputError } from '../../errors.js';
import { createTransport, LocalTransport } from '../../transports/index.js';
import { keeperFor } from '../../transports/keeper/index.js';
import { Semaphore } from '../../transports/semaphore.js';
import type { Transport } from '../../transports/transport.js';
import { connectionSettings, hostVars, type Inventory, type VarsLayer } from '../inventory/index.js';
import type { PlayDef, Vars } from '../playbook/types.js';
import { mergeVars, templatedVars } from '../vars/index.js';
import { UserConnections, withRemoteUser } from './remote-user.js';
import { withConnectionDefaults } from './config-defaults.js';
import { prepareModules, warmUpModules } from './warm-up.js';
import { createHostLocker } from './host-locks.js';
import { newHostState, type HostState } from './host-state.js';
import type { RunEvent } from './events.js';
import type { RunOptions } from './run-options.js';

export type ConnectionType = 'ssh' | 'local';

export interface RunHosts {
  /** Every inventory host the run touched, by name. */
  states: Map<string, HostState>;
  /** The state of an inventory host (made on first use). */
  hostState(name: string): HostState;
  /** An inventory host's own vars, for hostvars of hosts outside the play. */
  inventoryVarsOf(name: string): Vars;
  /** Reads a host's inventory vars again after the run changed the inventory (add_host, group_by). */
  refreshHost(name: string): void;
  /** Opens (or reuses) a host's connection for this play. Throws TransportError when unreachable. */
  connect(h: HostState, play?: PlayDef): Promise<Transport>;
  connectionOf(h: HostState, play?: PlayDef): ConnectionType;
  /** The host as another SSH login (a task's remote_user): its own connection, kept for the run, no lock. */
  userHost(h: HostState, user: string): Promise<HostState>;
  /** The controller's state for a delegate_to target outside the inventory (localhost only). */
  delegateHost(name: string): Promise<HostState>;
  lockHosts: ReturnType<typeof createHostLocker>['lockHosts'];
  /** Sets aside the connections of another type than `play` wants; the returned function brings them back. */
  setAsideFor(hosts: HostState[], play: PlayDef): () => Promise<void>;
  /** Releases every lock and closes every connection (never throws). */
  closeAll(): Promise<void>;
}

export function createRunHosts(opts: RunOptions, inv: Inventory, playLayers: VarsLayer[], emit: (e: RunEvent) => void): RunHosts {
  const states = new Map<string, HostState>();
  const localDelegates = new Map<string, HostState>();
  // At most this many SSH handshakes at once: hundreds started together starve each other (and the
  // hosts' sshd) of CPU until the slowest pass the connect timeout - measured: 406 of 500 light
  // hosts unreachable on 2 busy cores. Connected hosts still all run in parallel (--forks).
  const handshakes = new Semaphore(opts.connectConcurrency ?? 32);
  const keeper = keeperFor(opts.connectionPersistSec, opts.keeperCommand);
  const hostSettings = (h: HostState) => templatedVars(mergeVars(h.inventoryVars, opts.extraVars)) as Vars;

  /** -c forces; else a host's own ansible_connection; else the play's `connection:` keyword; else ssh. */
  const connectionOf = (h: HostState, play?: PlayDef): ConnectionType => {
    const vars = hostSettings(h);
    return opts.connection ?? (vars.ansible_connection === undefined ? play?.connection : undefined) ?? connectionSettings(vars).connection;
  };
  /** A host's connection settings for a play: its remote_user keyword (or `user`) below the host's ansible_user, above ansible.cfg. */
  const settingsOf = (h: HostState, play?: PlayDef, user?: string) => {
    const vars = hostSettings(h);
    const keyed = user !== undefined ? { ...vars, ansible_user: user } : withRemoteUser(vars, play?.remoteUser, play?.loc ?? { file: '' }, play?.vars);
    return connectionSettings(withConnectionDefaults(opts.connectionDefaults, keyed));
  };
  const open = async (h: HostState, play?: PlayDef, user?: string): Promise<{ t: Transport; as?: string }> => {
    const settings = settingsOf(h, play, user);
    const netns = h.inventoryVars.hostwire_netns;
    const kind = connectionOf(h, play);
    const t = createTransport(h.name, { ...settings, connection: kind, netns: typeof netns === 'string' ? netns : undefined }, { hostKeyChecking: opts.hostKeyChecking, keeper });
    await handshakes.run(() => t.connect());
    return { t, as: kind === 'ssh' ? settings.user : undefined };
  };
  const connect = async (h: HostState, play?: PlayDef): Promise<Transport> => {
    if (h.transport) return h.transport;
    prepareModules(play, { tags: opts.tags ?? [], skipTags: opts.skipTags ?? [] });
    const { t, as } = await open(h, play);
    h.transport = t;
    h.connectedAs = as;
    warmUpModules(play, t, h.inventoryVars, { tags: opts.tags ?? [], skipTags: opts.skipTags ?? [] });
    return t;
  };
  // A task's remote_user other than its host's login: one more connection per (host, user), unlocked.
  const userConnections = new UserConnections(async (h, user) => (await open(h, undefined, user)).t);
  const { lockHosts } = createHostLocker({
    emit, noWait: opts.noWait, timeoutSec: opts.lockTimeoutSec, signal: opts.signal, leaseSec: opts.lockLeaseSec,
  });
  const inventoryHosts = inventoryStates(inv, playLayers, states);
  return {
    states,
    ...inventoryHosts,
    connect,
    connectionOf,
    delegateHost: async (name) => {
      // An inventory host no play has run on yet: its own state and connection, as a play host's.
      if (inv.hosts.has(name)) {
        const h = inventoryHosts.hostState(name);
        await connect(h);
        return h;
      }
      if (name !== 'localhost' && name !== '127.0.0.1') throw new BadInputError(`delegate_to: '${name}' is not in the inventory`);
      let d = localDelegates.get(name);
      if (!d) {
        localDelegates.set(name, (d = newHostState(name, {})));
        d.transport = new LocalTransport(name);
      }
      return d;
    },
    lockHosts,
    userHost: (h, user) => userConnections.hostAs(h, user),
    setAsideFor: (hosts, play) => {
      const swapped = setAsideOtherConnections(hosts, (h) => ({ kind: connectionOf(h, play), user: settingsOf(h, play).user }));
      return () => restoreConnections(swapped);
    },
    closeAll: async () => {
      await Promise.allSettled([...states.values()].map(closeHost));
      await Promise.allSettled([...localDelegates.values()].map((d) => d.transport?.close()));
      await userConnections.closeAll();
    },
  };
}

/** The run's host states and inventory vars, read from the inventory (again after add_host/group_by). */
function inventoryStates(inv: Inventory, playLayers: VarsLayer[], states: Map<string, HostState>): Pick<RunHosts, 'hostState' | 'inventoryVarsOf' | 'refreshHost'> {
  const otherHostVars = new Map<string, Vars>();
  const withDataKeys = (h: HostState) => {
    const dataKeys = inv.hosts.get(h.name)?.dataKeys;
    if (dataKeys) h.dataKeys = new Set(dataKeys);
    return h;
  };
  return {
    hostState: (name) => {
      let h = states.get(name);
      if (!h) states.set(name, (h = withDataKeys(newHostState(name, hostVars(inv, name, { playLayers })))));
      return h;
    },
    inventoryVarsOf: (name) => {
      let v = otherHostVars.get(name);
      if (!v) otherHostVars.set(name, (v = hostVars(inv, name, { playLayers })));
      return v;
    },
    refreshHost: (name) => {
      otherHostVars.delete(name);
      const h = states.get(name);
      if (!h) return;
      h.inventoryVars = hostVars(inv, name, { playLayers });
      withDataKeys(h);
    },
  };
}

async function closeHost(h: HostState): Promise<void> {
  await h.releaseLock?.().catch(() => undefined);
  await h.transport?.close().catch(() => undefined);
}

interface SetAside {
  h: HostState;
  transport: Transport;
  releaseLock?: () => Promise<void>;
  connectedAs?: string;
}

/**
 * A play whose connection differs from the one a host is already connected by (`connection: local`
 * after an SSH play, or the reverse) gets its own transport and lock; the earlier ones come back after it.
 */
function setAsideOtherConnections(hosts: HostState[], wanted: (h: HostState) => { kind: ConnectionType; user: string }): SetAside[] {
  const out: SetAside[] = [];
  for (const h of hosts) {
    if (!h.transport) continue;
    const w = wanted(h);
    const sameKind = (h.transport instanceof LocalTransport) === (w.kind === 'local');
    // A play logging in as another user (remote_user) is another connection too.
    if (sameKind && (w.kind === 'local' || h.connectedAs === w.user)) continue;
    out.push({ h, transport: h.transport, releaseLock: h.releaseLock, connectedAs: h.connectedAs });
    h.transport = undefined;
    h.releaseLock = undefined;
  }
  return out;
}

async function restoreConnections(swapped: SetAside[]): Promise<void> {
  await Promise.allSettled(swapped.map(async ({ h, transport, releaseLock, connectedAs }) => {
    await closeHost(h);
    h.transport = transport;
    h.releaseLock = releaseLock;
    h.connectedAs = connectedAs;
  }));
}
