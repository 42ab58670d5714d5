/**
 * Reads ahead of the consumer: up to `depth` items of an async iterable are requested while the
 * current one is processed, so page reads overlap ERP writes. Memory stays bounded by depth.
 */
export async function* prefetch<T>(source: AsyncIterable<T>, depth: number): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const queue: Promise<IteratorResult<T>>[] = [];
  let done = false;
  const fill = () => {
    while (!done && queue.length < Math.max(1, depth)) {
      const next = iterator.next();
      next.catch(() => undefined); // surfaced when awaited below
      queue.push(next);
      // A generator's next() calls are queued by the runtime, so order is kept.
    }
  };
  try {
    fill();
    while (queue.length > 0) {
      const result = await (queue.shift() as Promise<IteratorResult<T>>);
      if (result.done) {
        done = true;
        break;
      }
      fill();
      yield result.value;
    }
  } finally {
    await iterator.return?.();
  }
}
