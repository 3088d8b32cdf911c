// hostwire's connection keeper (ControlPersist): see server.ts. keeperFor() gives a run its client.
import { KeeperClient } from './client.js';
import { keeperDir, keeperSocket, trustedKeeperDir } from './paths.js';

export { KeeperClient, KeeperUnavailable } from './client.js';

/** The hidden first argument that makes the CLI process a keeper. */
export const KEEPER_WORD = '__keeper';

/** A client of this namespace's keeper, or undefined when connections are not to be kept or cannot be safely. */
export function keeperFor(persistSec: number | undefined, command?: string[]): KeeperClient | undefined {
  if (!persistSec || persistSec <= 0) return undefined;
  const memo = `${persistSec}:${JSON.stringify(command ?? null)}`;
  if (!clients.has(memo)) clients.set(memo, makeClient(persistSec, command));
  return clients.get(memo);
}

/** One client per setting in a process: the run's early prestart() and its transports share it. */
const clients = new Map<string, KeeperClient | undefined>();

function makeClient(persistSec: number, command?: string[]): KeeperClient | undefined {
  const dir = keeperDir();
  if (!trustedKeeperDir(dir)) return undefined;
  const sock = keeperSocket(dir);
  return sock ? new KeeperClient(sock, persistSec, command ?? [process.execPath, process.argv[1]!]) : undefined;
}
