/**
 * Reads ahead of the consumer: up to `depth` items of an async iterable are requested while the
 * current one is processed, so page reads overlap ERP writes. Memory stays bounded by depth.
 * With `fillFirst`, the first item is handed over only once `depth` items are in (or the source
 * has ended), so the source has the process to itself while it fills the buffer.
 */
export async function* prefetch<T>(
  source: AsyncIterable<T>,
  depth: number,
  options: { fillFirst?: boolean } = {},
): AsyncGenerator<T> {
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
    // The source's next() calls settle in order, so the last one settled means all have.
    if (options.fillFirst) await queue.at(-1)?.catch(() => undefined);
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
