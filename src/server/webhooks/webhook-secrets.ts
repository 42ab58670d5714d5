import type { Sql } from 'postgres';
import { knownSecrets } from './subscriptions.ts';

/** Secrets that may sign a delivery; `fresh` skips the cache (a signature the cache cannot verify). */
export type SecretSource = (options?: { fresh?: boolean }) => Promise<string[]>;

/**
 * The secrets a delivery may be signed with (F21): WEBHOOK_SECRET when configured (it overrides
 * the stored ones), else those of the subscriptions this worker registered. Cached for
 * `cacheMs`, so a burst of deliveries costs one query; a signature the cached secrets do not
 * verify is checked again against a fresh read (at most one a second, so a flood of forged
 * deliveries cannot turn into a flood of queries), so a subscription just verified by another
 * replica counts at once.
 */
export function webhookSecrets(sql: Sql, override?: string, cacheMs = 5_000): SecretSource {
  if (override) return async () => [override];
  let cached: { at: number; secrets: Promise<string[]> } | null = null;
  return (options = {}) => {
    const now = Date.now();
    const age = cached ? now - cached.at : Number.POSITIVE_INFINITY;
    if (age > cacheMs || (options.fresh && age > 1_000)) {
      const secrets = knownSecrets(sql);
      cached = { at: now, secrets };
      // A failed read is not cached: the next delivery tries again.
      secrets.catch(() => {
        if (cached?.secrets === secrets) cached = null;
      });
    }
    return cached!.secrets;
  };
}
