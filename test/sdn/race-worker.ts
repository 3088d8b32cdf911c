// A separate process for the file-store race test: allocates `count` nodes named <tag>-<i> in one state file.
// Usage: node race-worker.js <state file> <tag> <count>
import { FileStore } from '../../src/sdn/store/file-store.js';
import { flannelConfig, resolvePool } from '../../src/sdn/pool.js';

const [file, tag, count] = process.argv.slice(2);
const pool = resolvePool({ network: '10.9.0.0/16', subnetLen: 24 });
const store = new FileStore(file);
const got: string[] = [];
for (let i = 0; i < Number(count); i++) {
  const r = await store.allocate({ pool, config: flannelConfig(pool, 'host-gw'), backendType: 'host-gw', node: `${tag}-${i}` });
  got.push(r.lease.subnet);
}
process.stdout.write(JSON.stringify(got));
