import { randomUUID } from 'node:crypto';

/**
 * Open chart streams of the reference service, one per cursor handed out: a page is the next
 * items of a stream the service keeps open, so paging a 100k chart reads it once. A cursor not
 * followed within the idle time is dropped (the client then starts the stream again).
 */
export class CursorStore<T> {
  private readonly open = new Map<string, { iterator: AsyncIterator<T>; touchedAt: number }>();

  constructor(
    private readonly pageSize: number,
    private readonly idleMs = 5 * 60_000,
  ) {}

  /** The next page of a new stream (cursor null) or of an open one; undefined: no such cursor. */
  async page(
    cursor: string | null,
    start: () => AsyncIterable<T>,
  ): Promise<{ items: T[]; nextCursor: string | null } | undefined> {
    this.sweep();
    const entry = cursor === null ? undefined : this.open.get(cursor);
    if (cursor !== null && !entry) return undefined;
    if (cursor !== null) this.open.delete(cursor);
    const iterator = entry?.iterator ?? start()[Symbol.asyncIterator]();
    const items: T[] = [];
    while (items.length < this.pageSize) {
      const next = await iterator.next();
      if (next.done) return { items, nextCursor: null };
      items.push(next.value);
    }
    const nextCursor = randomUUID();
    this.open.set(nextCursor, { iterator, touchedAt: Date.now() });
    return { items, nextCursor };
  }

  private sweep(): void {
    const now = Date.now();
    for (const [cursor, entry] of this.open) {
      if (now - entry.touchedAt > this.idleMs) {
        this.open.delete(cursor);
        void entry.iterator.return?.();
      }
    }
  }

  clear(): void {
    for (const entry of this.open.values()) void entry.iterator.return?.();
    this.open.clear();
  }
}
