// The connection keeper's wire format on its unix socket. A client opens one socket connection per
// request and sends one JSON line (the request); the keeper answers in frames of a type byte, a 4-byte
// big-endian length and the bytes. After an `exec` request the client's further bytes are the command's
// stdin (its half-close is stdin's end; closing the socket ends the command).
import type { SshAuthOptions, SshEndpoint } from '../ssh-connect.js';

export const FRAME = { stdout: 1, stderr: 2, exit: 3, error: 4, ready: 5 } as const;

/** What identifies a kept connection: the transport's options, never a password (those are not kept). */
export type KeeperKey = SshEndpoint & Omit<SshAuthOptions, 'password'> & { proxyJump?: SshEndpoint; netns?: string; maxChannels?: number };

export type KeeperRequest =
  | { op: 'connect'; key: KeeperKey }
  | { op: 'exec'; key: KeeperKey; command: string };

/** A request line is small: anything longer is not a client of ours. */
export const MAX_REQUEST_BYTES = 1 << 20;

export function frame(type: number, data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const head = Buffer.alloc(5);
  head.writeUInt8(type, 0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Splits a byte stream into frames. */
export class FrameSplitter {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): { type: number; body: Buffer }[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: { type: number; body: Buffer }[] = [];
    while (this.buf.length >= 5) {
      const size = this.buf.readUInt32BE(1);
      if (this.buf.length < 5 + size) break;
      out.push({ type: this.buf.readUInt8(0), body: this.buf.subarray(5, 5 + size) });
      this.buf = this.buf.subarray(5 + size);
    }
    return out;
  }
}

/** A stable identity for a key: the same options in any order name the same connection. */
export function keyId(key: KeeperKey): string {
  const sorted = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sorted(x)]))
    : v);
  return JSON.stringify(sorted(key));
}
