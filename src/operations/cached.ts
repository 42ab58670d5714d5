/**
 * A value read at most once per `ttlMs`, shared by every caller meanwhile, so scrapes (however
 * frequent, from however many scrapers) cost one read per period. A caller waits at most
 * `timeoutMs`; a slow read keeps running and no second one starts until it ends, so a struggling
 * database is not sent more work. A failed read is not kept: the next call tries again.
 */
export function cachedRead<T>(read: () => Promise<T>, ttlMs: number, timeoutMs: number): () => Promise<T> {
  let last: { at: number; value: T } | null = null;
  let inFlight: Promise<T> | null = null;
  return () => {
    if (last && Date.now() - last.at < ttlMs) return Promise.resolve(last.value);
    inFlight ??= read()
      .then((value) => {
        last = { at: Date.now(), value };
        return value;
      })
      .finally(() => {
        inFlight = null;
      });
    return withTimeout(inFlight, timeoutMs);
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
