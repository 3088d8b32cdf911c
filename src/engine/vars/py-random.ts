// Python's random.Random(seed) for a string seed (CPython 3: MT19937, seed version 2), far enough for
// `choice`: the password lookup's `seed=` must give the very password ansible-core gives for that seed.
import { createHash } from 'node:crypto';

const N = 624;
const M = 397;

export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  /** random.seed(str): the int of the UTF-8 bytes followed by their sha512, as 32-bit words, least significant first. */
  constructor(seed: string) {
    const bytes = Buffer.from(seed, 'utf8');
    const all = Buffer.concat([bytes, createHash('sha512').update(bytes).digest()]);
    const key: number[] = [];
    for (let end = all.length; end > 0; end -= 4) {
      let w = 0;
      for (let i = Math.max(0, end - 4); i < end; i++) w = ((w << 8) | all[i]!) >>> 0;
      key.push(w);
    }
    while (key.length > 1 && key[key.length - 1] === 0) key.pop();
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    this.mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = this.mt[i - 1]! ^ (this.mt[i - 1]! >>> 30);
      this.mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: number[]): void {
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = this.mt[i - 1]! ^ (this.mt[i - 1]! >>> 30);
      this.mt[i] = ((this.mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        this.mt[0] = this.mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = this.mt[i - 1]! ^ (this.mt[i - 1]! >>> 30);
      this.mt[i] = ((this.mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        this.mt[0] = this.mt[N - 1]!;
        i = 1;
      }
    }
    this.mt[0] = 0x80000000;
  }

  private next32(): number {
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (this.mt[k]! & 0x80000000) | (this.mt[(k + 1) % N]! & 0x7fffffff);
        this.mt[k] = this.mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** random._randbelow_with_getrandbits for n < 2**32. */
  below(n: number): number {
    const k = n.toString(2).length;
    for (;;) {
      const r = this.next32() >>> (32 - k);
      if (r < n) return r;
    }
  }

  choice<T>(seq: ArrayLike<T>): T {
    return seq[this.below(seq.length)]!;
  }
}
