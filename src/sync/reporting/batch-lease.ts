import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from 'postgres';
import { readerName } from '../objects/index.ts';

/**
 * How long a sender holds a frozen batch before another may take it over. Longer than one send
 * with its retries as they usually go (a post takes about a second; the backoff of a few failed
 * attempts, docs/platform.md G8, adds 1 + 2 + 4 + 8 s), so a live sender is rarely overtaken; and
 * well shorter than the time between a sync-button press and its watchdog (4½ minutes, G29), so a
 * batch whose sender stopped before the press is free again when the watchdog looks. A lease that
 * lapses while its sender is still at work costs one request at most: see sendUnderLease.
 */
const RESULT_BATCH_LEASE_MS = 60_000;

export interface LeaseTiming {
  /** How long a claim holds the batch (RESULT_BATCH_LEASE_MS). */
  leaseMs: number;
  /**
   * How often, at most, a sender waiting for a batch another holds looks at it again. The first
   * looks come sooner (see pollDelay): a holder is most often a round trip from done.
   */
  pollMs: number;
  /**
   * The longest a sender waits for a batch another holds: one lease for the holder to finish or
   * lapse, one more for a sender that took it over.
   */
  maxWaitMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = {
  leaseMs: RESULT_BATCH_LEASE_MS,
  pollMs: 500,
  maxWaitMs: 2 * RESULT_BATCH_LEASE_MS,
};

/** What a sender does with a batch another sender holds an unexpired lease on. */
export type WhenLeased = 'wait' | 'skip';

/** What became of a batch handed to sendUnderLease. */
export type LeasedSend = 'sent' | 'acknowledged' | 'skipped';

/** A batch another sender kept leased for longer than this one would wait. */
export class BatchStillLeasedError extends Error {
  constructor(batchId: string, waitedMs: number) {
    super(
      `result batch ${batchId} is still being sent by another process after ${Math.round(waitedMs / 1000)} s; ` +
        'it stays frozen and is sent by the next run',
    );
    this.name = 'BatchStillLeasedError';
  }
}

type ClaimAnswer = 'claimed' | 'acknowledged' | 'leased';

/**
 * One short statement, outside any transaction: takes the lease when the batch is FROZEN and no
 * one holds an unexpired lease on it. The expiry comes from the database clock (now()), never
 * from this process's, so senders on hosts whose clocks disagree agree on when a lease lapsed.
 */
async function claimLease(sql: Sql, batchId: string, owner: string, leaseMs: number): Promise<ClaimAnswer> {
  const [row] = await sql<{ claimed: boolean; state: string | null }[]>`
    with claimed as (
      update result_batches
         set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
       where id = ${batchId} and state = 'FROZEN' and (lease_until is null or lease_until <= now())
      returning id
    )
    select exists (select 1 from claimed) as claimed,
           (select state from result_batches where id = ${batchId}) as state`;
  if (row?.claimed) return 'claimed';
  // Gone (moved away and deleted) counts as done: nothing is left to send.
  return row?.state === 'FROZEN' ? 'leased' : 'acknowledged';
}

/**
 * Sends a frozen batch under a lease on its row. `send` runs with no transaction open and no lock
 * held, and must see the batch acknowledged (ackBatch clears the lease) or its failure noted with
 * its owner (noteBatchFailure releases it); the acknowledgement may still run when it returns
 * (report-results.ts awaits it), the lease covering it until then. A batch acknowledged
 * meanwhile is not sent. A batch another sender holds is waited for (`wait`: until it is
 * acknowledged, or its lease lapses and this sender takes it over, at most `maxWaitMs`, then
 * BatchStillLeasedError) or left to its holder (`skip`).
 *
 * Taking over a lapsed lease may send a batch whose first sender is still at work (stopped, or
 * slow beyond its lease). That is safe: the batch's body and idempotency key were fixed when it
 * was frozen and never change, so the second post is the same idempotent request, and the
 * platform answers it with the first one's answer and applies nothing twice (docs/platform.md
 * F15). Whichever answer arrives first acknowledges the batch; the later one finds it ACKED.
 */
export async function sendUnderLease(
  sql: Sql,
  batchId: string,
  options: { timing: LeaseTiming; whenLeased: WhenLeased },
  send: (owner: string) => Promise<void>,
): Promise<LeasedSend> {
  // A name per send, not per process: two runs of one process (a bulk run and a press) are two
  // senders, and one never takes the other's batch as its own.
  const owner = readerName();
  const started = performance.now();
  for (;;) {
    const answer = await claimLease(sql, batchId, owner, options.timing.leaseMs);
    if (answer === 'acknowledged') return 'acknowledged';
    if (answer === 'claimed') {
      await send(owner);
      return 'sent';
    }
    if (options.whenLeased === 'skip') return 'skipped';
    const waited = performance.now() - started;
    if (waited >= options.timing.maxWaitMs) throw new BatchStillLeasedError(batchId, waited);
    await sleep(pollDelay(waited, options.timing.pollMs));
  }
}

/** The first look at a leased batch after this long; each later one after as long as it has waited. */
const FIRST_POLL_MS = 20;

/**
 * How long a waiting sender sleeps before it looks again: as long as it has waited so far, from
 * FIRST_POLL_MS up to `pollMs`. At the end of a run shared by two processes each waits on the
 * other's last batch, which its holder acknowledges one post and one UPDATE later (200-400 ms
 * in benchmark 1c): polled every 500 ms, the run ended up to half a second after it; polled
 * this way, at most as long again as it has waited, while a holder that stopped is looked at no
 * more often than every `pollMs`.
 */
export function pollDelay(waitedMs: number, pollMs: number): number {
  return Math.max(1, Math.min(pollMs, Math.max(FIRST_POLL_MS, waitedMs)));
}
