// A tiny counting semaphore: OpenSSH refuses more than MaxSessions (default 10) channels per
// connection, so extra execs wait here instead of failing with "open failed".

export class Semaphore {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  constructor(readonly capacity: number) {}

  async acquire(): Promise<() => void> {
    if (this.active < this.capacity) this.active++;
    else await new Promise<void>((resolve) => this.waiters.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      // Hand the slot straight to the next waiter so `active` never dips below the real count.
      if (next) next();
      else this.active--;
    };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  get inUse(): number {
    return this.active;
  }
}
