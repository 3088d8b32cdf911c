// Property tests over random networks, both styles, IPv4 and IPv6, with a seeded PRNG:
// leases never overlap, never leave the network (or the flannel range), a node keeps its subnet on
// every re-run, and a full pool fails with a clear error.
import test from 'ava';
import { type Cidr, formatCidr, formatIp, overlaps, parseCidr } from '../../src/sdn/cidr.js';
import { SubnetsExhaustedError } from '../../src/sdn/errors.js';
import { type Pool, fitsPool, flannelConfig, poolSize, resolvePool } from '../../src/sdn/pool.js';
import { decideAllocation } from '../../src/sdn/store/decide.js';
import type { Lease, Snapshot } from '../../src/sdn/store/types.js';
import { mulberry32, randInt } from './prng.js';

function randomPool(r: () => number): Pool {
  const kind = randInt(r, 0, 2);
  if (kind === 2) {
    const prefix = randInt(r, 40, 60);
    const len = prefix + randInt(r, 2, 6);
    return resolvePool({ network: `fd00:${randInt(r, 1, 0xffff).toString(16)}::/${prefix}`.replace(/::\/(\d+)/, '::/$1'), subnetLen: len });
  }
  const prefix = randInt(r, 8, 26);
  const base = formatIp(4, (BigInt(randInt(r, 1, 223)) << 24n) & ~((1n << BigInt(32 - prefix)) - 1n));
  if (kind === 0) {
    const len = Math.min(30, prefix + randInt(r, 2, 6));
    return resolvePool({ network: `${base}/${prefix}`, subnetLen: len });
  }
  return resolvePool({ network: `${base}/${prefix}`, subnetLen: Math.min(31, prefix + randInt(r, 0, 6)), style: 'openshift' });
}

function allocate(pool: Pool, snap: Snapshot, node: string, r: () => number): Snapshot {
  const req = { pool, config: flannelConfig(pool, 'host-gw'), backendType: 'host-gw', node, pick: r() < 0.5 ? ('random' as const) : ('lowest' as const), rand: r };
  const d = decideAllocation(snap, req, 'node', 'memory');
  return { config: d.config, style: pool.style, cursor: d.cursor ?? snap.cursor, leases: [...snap.leases.filter((l) => l.node !== node), d.lease] };
}

const cidrs = (ls: Lease[]): Cidr[] => ls.map((l) => parseCidr(l.subnet));

for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 42, 1234]) {
  test(`seed ${seed}: no overlaps, inside the pool, stable, exhausted cleanly`, (t) => {
    const r = mulberry32(seed);
    for (let round = 0; round < 5; round++) {
      const pool = randomPool(r);
      const size = Number(poolSize(pool) > 40n ? 40n : poolSize(pool));
      const full = poolSize(pool) <= 40n;
      let snap: Snapshot = { leases: [], cursor: 0 };
      const moved: string[] = [];
      for (let i = 0; i < size; i++) {
        snap = allocate(pool, snap, `n${i}`, r);
        // Now and then release a random node; re-running another must not move it.
        if (r() < 0.2) snap = { ...snap, leases: snap.leases.filter((l) => l.node !== `n${randInt(r, 0, i)}`) };
        const again = snap.leases[randInt(r, 0, snap.leases.length - 1)];
        if (again && allocate(pool, snap, again.node!, r).leases.find((l) => l.node === again.node)?.subnet !== again.subnet) moved.push(again.node!);
      }
      if (full) {
        // Fill what the releases freed, then one more must fail clearly.
        for (let i = 0; snap.leases.length < size; i++) snap = allocate(pool, snap, `m${i}`, r);
        t.throws(() => allocate(pool, snap, 'one-too-many', r), { instanceOf: SubnetsExhaustedError, message: /is exhausted/ }, `seed ${seed} ${formatCidr(pool.network)}`);
      }
      // One assertion per round (ava assertions are not free): list every violation.
      t.deepEqual(moved, [], 'a re-run keeps every subnet');
      const cs = cidrs(snap.leases);
      const outside = cs.filter((c) => !fitsPool(pool, c)).map(formatCidr);
      const clashes: string[] = [];
      for (let a = 0; a < cs.length; a++) for (let b = a + 1; b < cs.length; b++) if (overlaps(cs[a], cs[b])) clashes.push(`${formatCidr(cs[a])} vs ${formatCidr(cs[b])}`);
      t.deepEqual({ outside, clashes }, { outside: [], clashes: [] }, `seed ${seed} ${formatCidr(pool.network)}/${pool.subnetLen} ${pool.style}`);
    }
  });
}

test('openshift style keeps its cursor: a released subnet comes back only after the others', (t) => {
  const pool = resolvePool({ network: '10.1.0.0/16', subnetLen: 18, style: 'openshift' });
  let snap: Snapshot = { leases: [], cursor: 0 };
  const r = mulberry32(9);
  for (const n of ['a', 'b', 'c']) snap = allocate(pool, snap, n, r);
  snap = { ...snap, leases: snap.leases.filter((l) => l.node !== 'b') };
  snap = allocate(pool, snap, 'd', r);
  t.is(snap.leases.find((l) => l.node === 'd')!.subnet, '10.1.192.0/18');
  snap = allocate(pool, snap, 'e', r);
  t.is(snap.leases.find((l) => l.node === 'e')!.subnet, '10.1.64.0/18');
});
