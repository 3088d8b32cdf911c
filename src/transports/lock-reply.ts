// Reads what the lock script prints: status lines (busy <holder>, locked, unsafe <path>, ...),
// then, once locked, the first read's output up to its end marker. Linear in the output's size:
// chunks are kept in a list and only the new text (plus a marker-long tail) is searched, since a
// first read can bring back tens of MB (joining and rescanning the whole buffer per chunk took
// 54 s for 40 MB).
import { StringDecoder } from 'node:string_decoder';

export type LockReply =
  | { kind: 'busy'; holder: string }
  | { kind: 'locked'; output?: string }
  | { kind: 'other'; word: string };

export class LockReplyReader {
  private readonly utf8 = new StringDecoder('utf8');
  private line = '';
  private locked = false;
  private readonly chunks: string[] = [];
  private length = 0;
  private tail = '';
  private readonly needle?: string;

  /** `end`: the marker printed after the first read, or undefined when there is none. */
  constructor(end: string | undefined, private readonly on: (r: LockReply) => void) {
    this.needle = end === undefined ? undefined : `\n${end}\n`;
  }

  /** True once locked (the first read may still be coming). */
  get holding(): boolean {
    return this.locked;
  }

  /** Feed one chunk; returns true once the reply is complete (locked with its output, or a failure). */
  push(data: Buffer): boolean {
    const text = this.utf8.write(data);
    if (this.locked) return this.readOutput(text);
    this.line += text;
    for (let i = this.line.indexOf('\n'); i >= 0; i = this.line.indexOf('\n')) {
      const word = this.line.slice(0, i).trim();
      this.line = this.line.slice(i + 1);
      if (word === 'busy' || word.startsWith('busy ')) {
        this.on({ kind: 'busy', holder: word.slice(4).trim() });
        return true;
      } else if (word === 'locked') {
        this.locked = true;
        if (this.needle === undefined) {
          this.on({ kind: 'locked' });
          return true;
        }
        const rest = this.line;
        this.line = '';
        return this.readOutput(rest);
      } else {
        this.on({ kind: 'other', word });
        return true;
      }
    }
    return false;
  }

  /** What came before the stream ended, for an error message. */
  leftover(): string {
    return this.line.trim();
  }

  private readOutput(text: string): boolean {
    const needle = this.needle!;
    const window = this.tail + text;
    const at = window.indexOf(needle);
    if (at >= 0) {
      const end = this.length - this.tail.length + at;
      this.chunks.push(text);
      this.on({ kind: 'locked', output: this.chunks.join('').slice(0, end) });
      return true;
    }
    this.chunks.push(text);
    this.length += text.length;
    this.tail = window.slice(-(needle.length - 1));
    return false;
  }
}
