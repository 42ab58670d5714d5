import type { RunningStub } from '@ledgersync/stub';
import { afterEach, describe, expect, it } from 'vitest';
import { okValues } from '../../../src/platform/parse.ts';
import type { SyncOutcome } from '../../../src/platform/resources/syncs.ts';
import { KIND_SPECS } from '../../../src/sync/objects/index.ts';
import { useTestRedis } from '../../support/redis.ts';
import { capturingLogger } from './support/capture-log.ts';
import { addClient, control, effects, startTestStub, testClient } from './support/stub.ts';

const redis = useTestRedis();
const TRANSACTIONS = 600;
const BATCH = 20;
const running: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const thing of running.splice(0).reverse()) await thing.close();
});

/** Faults a well-behaved client must survive (docs/platform.md G8, F3, F15). */
function survivableFaults(mode: 'replay' | 'error_7005') {
  return {
    seed: mode === 'replay' ? 41 : 42,
    routes: {
      '*': { error_rate: 0.1, timeout_rate: 0.05 },
      'POST /accounting/syncs': { drop_after_commit_rate: 0.15 },
    },
    once: [{ route: 'POST /accounting/syncs', action: 'timeout_after_commit', times: 2 }],
    storm_429: { count: 3 },
    idempotent_replay: mode,
  };
}

async function runUnderFaults(mode: 'replay' | 'error_7005') {
  const captured = capturingLogger();
  const stub: RunningStub = await startTestStub();
  running.push(stub);
  const credentials = await addClient(stub);
  await control(stub, 'POST', '/__stub/seed', {
    seed: 5,
    transactions: TRANSACTIONS,
    ready_fraction: 1,
    connection: {},
  });
  await control(stub, 'PUT', '/__stub/faults', survivableFaults(mode));
  const client = testClient(stub, redis, credentials, captured.log, {
    retry: { maxAttempts: 8, baseMs: 20, capMs: 200 },
  });
  running.push(client);

  const ready = await client.objects.ready(KIND_SPECS.transactions.list).collect();
  expect(ready.failures).toEqual([]);
  const ids = ready.values.map((t) => t.id);
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += BATCH) batches.push(ids.slice(i, i + BATCH));
  const outcomes: SyncOutcome[] = [];
  const post = async (batch: string[], index: number) => {
    outcomes[index] = await client.syncs.postResults({
      idempotency_key: `faults-${mode}-${index}`,
      sync_type: 'TRANSACTION_SYNC',
      successful_syncs: batch.map((id) => ({ id, reference_id: `JE-${id}` })),
    });
  };
  // Five logical posts at a time, every one of which must succeed despite the faults.
  for (let i = 0; i < batches.length; i += 5) {
    await Promise.all(batches.slice(i, i + 5).map((batch, j) => post(batch, i + j)));
  }
  return { stub, ids, outcomes, captured, credentials, client };
}

describe('under faults (docs/platform.md G8, F3, F15)', () => {
  for (const mode of ['replay', 'error_7005'] as const) {
    it(`F15 (${mode}): with 5xx, 504s, 429 storms and dropped connections, each sync takes effect once`, async () => {
      const { stub, ids, outcomes, captured, credentials, client } = await runUnderFaults(mode);
      expect(ids).toHaveLength(TRANSACTIONS);
      expect(outcomes.filter(Boolean)).toHaveLength(TRANSACTIONS / BATCH);

      const { arrivals, marks } = await effects(stub);
      // The faults really happened.
      expect(arrivals.filter((a) => a.status >= 500 && a.status !== 504).length).toBeGreaterThan(0);
      expect(arrivals.filter((a) => a.status === 504).length).toBeGreaterThan(0);
      expect(arrivals.filter((a) => a.status === 429).length).toBeGreaterThan(0);
      expect(
        arrivals.filter((a) => a.status === 0 && a.route === '/accounting/syncs').length,
      ).toBeGreaterThan(0);
      expect(client.stats().limiter.rateLimited).toBeGreaterThan(0);

      // Exactly once: one SYNCED mark per object, none twice, none missing.
      const synced = new Map<string, number>();
      for (const mark of marks) {
        if (mark.result === 'SYNCED') synced.set(mark.object_id, (synced.get(mark.object_id) ?? 0) + 1);
      }
      expect([...synced.values()].every((count) => count === 1)).toBe(true);
      expect([...synced.keys()].sort()).toEqual([...ids].sort());
      const summary = await control<{ summary: { synced_more_than_once: unknown[] } }>(
        stub,
        'GET',
        '/__stub/effects?summary=true&limit=1',
      );
      expect(summary.summary.synced_more_than_once).toEqual([]);

      // Answers: a replayed or recorded answer says SYNCED; a lost one is "already applied".
      for (const outcome of outcomes) {
        if (outcome.answer)
          expect(okValues(outcome.answer.results).every((r) => r.status === 'SYNCED')).toBe(true);
        else expect(outcome.alreadyApplied).toBe(true);
      }
      if (mode === 'error_7005') expect(outcomes.some((o) => o.alreadyApplied)).toBe(true);

      const count = (keep: (a: { status: number }) => boolean) => arrivals.filter(keep).length;
      console.info(
        `faults (${mode}): ${arrivals.length} arrivals for ${outcomes.length} posts + reads; ` +
          `5xx ${count((a) => a.status >= 500 && a.status !== 504)}, 504 ${count((a) => a.status === 504)}, ` +
          `429 ${count((a) => a.status === 429)}, dropped ${count((a) => a.status === 0)}; ` +
          `already applied ${outcomes.filter((o) => o.alreadyApplied).length}`,
      );
      const text = captured.text();
      expect(text).toContain('retrying');
      expect(text).not.toContain(credentials.clientSecret);
      expect(text).not.toMatch(/svc_business_tok_[A-Za-z0-9]/);
    });
  }
});
