// The fallback's framing, both ends: the TypeScript reader/encoder, and the host worker's own
// framing and payload cache run for real (worker.py under this machine's python3, HOME in a temp
// dir; it runs no module here - the lab test does that on a host).
import test from 'ava';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { encodeFrame, FrameReader } from '../../src/fallback/frames.js';

const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const WORKER = readFileSync(path.join(root, 'src/fallback/host/worker.py'), 'utf8');

test('frames: every split of a byte stream gives back the same messages, in order', (t) => {
  const messages = [{ op: 'hello', python: '3.11.2' }, { ok: true, stdout: 'ü\n{"x": 1}', rc: 0 }, {}];
  const bytes = Buffer.concat(messages.map(encodeFrame));
  for (let cut = 0; cut <= bytes.length; cut++) {
    const r = new FrameReader();
    const got = [...r.push(bytes.subarray(0, cut)), ...r.push(bytes.subarray(cut))];
    t.deepEqual(got, messages, `cut at ${cut}`);
    t.is(r.pending, 0);
  }
  const slow = new FrameReader();
  const one: unknown[] = [];
  for (const b of bytes) one.push(...slow.push(Buffer.from([b])));
  t.deepEqual(one, messages, 'byte by byte');
});

test('frames: a length past the limit and a body that is not JSON are errors that say so', (t) => {
  const huge = Buffer.from([0xff, 0xff, 0xff, 0xff]);
  t.throws(() => new FrameReader().push(huge), { message: /frame of 4294967295 bytes/ });
  const notJson = Buffer.concat([Buffer.from([0, 0, 0, 5]), Buffer.from('hello')]);
  t.throws(() => new FrameReader().push(notJson), { message: /not JSON: "hello"/ });
});

/** A zip with one stored entry, as Python's zipfile reads it (enough for the worker's put). */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const packed = deflateRawSync(data);
  const crc = crc32(data);
  const nameBuf = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(8, 8);
  local.writeUInt16LE(0x21, 12); local.writeUInt32LE(crc, 14); local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22); local.writeUInt16LE(nameBuf.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt16LE(8, 10);
  central.writeUInt16LE(0x21, 14); central.writeUInt32LE(crc, 16); central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(data.length, 24); central.writeUInt16LE(nameBuf.length, 28);
  const localPart = Buffer.concat([local, nameBuf, packed]);
  const centralPart = Buffer.concat([central, nameBuf]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(1, 8); end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralPart.length, 12); end.writeUInt32LE(localPart.length, 16);
  return Buffer.concat([localPart, centralPart, end]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** Talks to a real worker.py: one request, one reply. */
async function withWorker(home: string, fn: (ask: (m: unknown) => Promise<Record<string, unknown>>, hello: Record<string, unknown>) => Promise<void>): Promise<void> {
  const child = spawn('python3', ['-c', WORKER], { env: { ...process.env, HOME: home }, stdio: ['pipe', 'pipe', 'inherit'] });
  const reader = new FrameReader();
  const queue: Record<string, unknown>[] = [];
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  child.stdout.on('data', (c: Buffer) => {
    for (const m of reader.push(c)) (waiters.shift() ?? ((x) => queue.push(x)))(m as Record<string, unknown>);
  });
  const next = () => new Promise<Record<string, unknown>>((resolve) => (queue.length ? resolve(queue.shift()!) : waiters.push(resolve)));
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const hello = await next();
    await fn(async (m) => {
      const reply = next();
      child.stdin.write(encodeFrame(m));
      return reply;
    }, hello);
  } finally {
    child.stdin.end();
  }
  // Its stdin closed: the worker ends on its own.
  await ended;
}

test('worker.py: hello, then the payload cache - absent, put (verified), present, private modes, refusals', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'hw-f5-worker-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  await withWorker(home, async (ask, hello) => {
    t.is(hello.op, 'hello');
    t.regex(String(hello.python), /^3\./);
    const zip = zipOf('ansible/modules/x.py', 'print(1)\n');
    const hash = createHash('sha256').update(zip).digest('hex');
    t.deepEqual(await ask({ op: 'have', hash }), { ok: true, present: false });
    const wrong = await ask({ op: 'put', hash: 'a'.repeat(64), zip: zip.toString('base64') });
    t.false(wrong.ok);
    t.regex(String(wrong.error), /does not match its sha256/);
    t.deepEqual(await ask({ op: 'put', hash, zip: zip.toString('base64') }), { ok: true });
    t.deepEqual(await ask({ op: 'have', hash }), { ok: true, present: true });
    const cache = path.join(home, '.cache/hostwire/ansible');
    t.is(statSync(cache).mode & 0o777, 0o700);
    t.is(statSync(path.join(cache, hash)).mode & 0o777, 0o700);
    t.is(statSync(path.join(cache, hash, 'ansible/modules/x.py')).mode & 0o777, 0o600);
    t.is(readFileSync(path.join(cache, hash, 'ansible/modules/x.py'), 'utf8'), 'print(1)\n');
    const evil = zipOf('../escape.py', 'x');
    const refused = await ask({ op: 'put', hash: createHash('sha256').update(evil).digest('hex'), zip: evil.toString('base64') });
    t.regex(String(refused.error), /unsafe path in payload/);
    t.regex(String((await ask({ op: 'have', hash: '../../etc' })).error), /bad payload hash/);
    t.regex(String((await ask({ op: 'run', hash: 'b'.repeat(64), fqn: 'x', args: {} })).error), /is not on this host/);
    t.regex(String((await ask({ op: 'nope' })).error), /unknown op/);
  });
});

test('worker.py: a cache directory others can write to is refused, not used', async (t) => {
  const home = mkdtempSync(path.join(tmpdir(), 'hw-f5-worker-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const { mkdirSync, chmodSync } = await import('node:fs');
  mkdirSync(path.join(home, '.cache/hostwire'), { recursive: true });
  chmodSync(path.join(home, '.cache/hostwire'), 0o777);
  await withWorker(home, async (ask) => {
    const zip = zipOf('a.py', 'x');
    const r = await ask({ op: 'put', hash: createHash('sha256').update(zip).digest('hex'), zip: zip.toString('base64') });
    t.regex(String(r.error), /not group\/world-writable/);
  });
});
