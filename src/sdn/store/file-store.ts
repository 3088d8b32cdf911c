// The default store: a JSON file beside the inventory, `<inventory dir>/.hostwire/subnets.json`.
// Every read-decide-write happens under an exclusive lock file (`<file>.lock`), so two runs cannot give out the
// same subnet. The file is replaced atomically (temp file in the same directory, fsync, rename).
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { BadInputError } from '../../errors.js';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../../private-files.js';
import type { FlannelConfigJson } from '../pool.js';
import { decideAllocation, isMine, sortLeases } from './decide.js';
import { withLock } from './lock.js';
import type { AllocateRequest, AllocateResult, Lease, NodeRef, ReleaseResult, Snapshot, SubnetStore } from './types.js';

export const STATE_FILE_VERSION = 1;

/** What the state file holds. */
export interface StateFile {
  version: number;
  style?: string;
  config?: FlannelConfigJson;
  /** OpenShift's round-robin cursor: the next subnet number to try. */
  cursor?: number;
  leases: Lease[];
}

export function defaultStateFile(inventoryDir: string): string {
  return join(inventoryDir, '.hostwire', 'subnets.json');
}

/** Pure: the state file's text to a snapshot. Errors name the file and what was expected. */
export function parseStateFile(text: string, path: string): Snapshot {
  let doc: StateFile;
  try {
    doc = JSON.parse(text) as StateFile;
  } catch (e) {
    throw new BadInputError(`${path}: not valid JSON (${(e as Error).message}); expected a hostwire subnet state file`);
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.leases)) throw new BadInputError(`${path}: expected an object with a "leases" list`);
  if (doc.version !== STATE_FILE_VERSION) throw new BadInputError(`${path}: state file version ${String(doc.version)}; this hostwire reads version ${STATE_FILE_VERSION}`);
  return { config: doc.config, style: doc.style, cursor: doc.cursor ?? 0, leases: doc.leases };
}

export function renderStateFile(s: Snapshot): string {
  const doc: StateFile = { version: STATE_FILE_VERSION, style: s.style, config: s.config, cursor: s.cursor, leases: sortLeases(s.leases) };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export class FileStore implements SubnetStore {
  readonly describe: string;
  constructor(readonly path: string) {
    this.describe = `state file ${path}`;
  }

  async load(): Promise<Snapshot> {
    const text = await readFile(this.path, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw new BadInputError(`${this.path}: cannot read the subnet state file: ${e.message}`);
    });
    return text === undefined ? { leases: [], cursor: 0 } : parseStateFile(text, this.path);
  }

  async list(): Promise<Lease[]> {
    return sortLeases((await this.load()).leases);
  }

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    await mkdirPrivate(dirname(this.path));
    return withLock(`${this.path}.lock`, fn);
  }

  private async save(s: Snapshot): Promise<void> {
    const tmp = `${this.path}.${process.pid}.tmp`;
    const fh = await open(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      await fh.chmod(PRIVATE_FILE_MODE);
      await fh.writeFile(renderStateFile(s));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.path).catch(async (e) => {
      await unlink(tmp).catch(() => undefined);
      throw e;
    });
  }

  async allocate(req: AllocateRequest): Promise<AllocateResult> {
    const run = async (): Promise<AllocateResult> => {
      const snap = await this.load();
      const d = decideAllocation(snap, req, 'node', this.describe);
      // A node has one lease in this store: the decided one replaces whatever the node had.
      const leases = sortLeases([...snap.leases.filter((l) => !isMine(l, { node: req.node }, 'node')), d.lease]);
      const next: Snapshot = { config: d.config, style: req.pool.style, cursor: d.cursor ?? snap.cursor, leases };
      const changed = d.configCreate || renderStateFile(next) !== renderStateFile(snap);
      if (changed && !req.check) await this.save(next);
      return { changed, action: d.action, lease: d.lease, leases, config: d.config, configCreated: d.configCreate, dropped: d.drop };
    };
    // --check reads without the lock: it writes nothing.
    return req.check ? run() : this.locked(run);
  }

  async release(ref: NodeRef, o: { check?: boolean } = {}): Promise<ReleaseResult> {
    const run = async (): Promise<ReleaseResult> => {
      const snap = await this.load();
      const released = snap.leases.filter((l) => isMine(l, ref, 'node'));
      const leases = sortLeases(snap.leases.filter((l) => !released.includes(l)));
      if (released.length > 0 && !o.check) await this.save({ ...snap, leases });
      return { changed: released.length > 0, released, leases, config: snap.config };
    };
    return o.check ? run() : this.locked(run);
  }
}
