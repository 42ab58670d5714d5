/**
 * In-process exclusion by idempotency key: two calls of one adapter that write the same object
 * run one after the other, so the second finds the first's record and replays it. Keys are
 * taken in sorted order, so two batches sharing keys never wait on each other in a cycle.
 * (Across processes, the sync's per-kind lock keeps writers of one object apart.)
 */
export class KeyLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async withKeys<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      for (const key of [...new Set(keys)].sort()) releases.push(await this.acquire(key));
      return await fn();
    } finally {
      for (const release of releases) release();
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
