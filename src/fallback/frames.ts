// The fallback worker's framing (see host/worker.py): each message is a 4-byte big-endian length
// and that many bytes of UTF-8 JSON, both ways. Pure, so it is tested without a host.
import { BadInputError } from '../errors.js';

/** Largest frame accepted from a host: a module's output past this is a fault, not a result. */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** Collects bytes as they arrive and hands out each whole frame's JSON value. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private size = 0;

  /** Adds bytes; returns every message now complete, in order. */
  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.size += chunk.length;
    const out: unknown[] = [];
    for (;;) {
      if (this.size < 4) return out;
      const buf = this.joined();
      const len = buf.readUInt32BE(0);
      if (len > MAX_FRAME_BYTES) throw new BadInputError(`fallback worker sent a frame of ${len} bytes (more than ${MAX_FRAME_BYTES}): not a hostwire worker reply`);
      if (buf.length < 4 + len) return out;
      const body = buf.subarray(4, 4 + len).toString('utf8');
      this.chunks = [buf.subarray(4 + len)];
      this.size = buf.length - 4 - len;
      try {
        out.push(JSON.parse(body));
      } catch {
        throw new BadInputError(`fallback worker sent a frame that is not JSON: ${JSON.stringify(body.slice(0, 200))}`);
      }
    }
  }

  /** Bytes received that do not yet form a whole frame. */
  get pending(): number {
    return this.size;
  }

  private joined(): Buffer {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }
}
