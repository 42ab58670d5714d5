import { z } from 'zod';
import { type ItemResult, parseBody, parseItems } from '../parse.ts';
import {
  CodingRequest,
  CodingResponse,
  ReadyToSyncRequest,
  SyncRequest,
  SyncResult,
} from '../schemas/syncs.ts';
import { checkBody, fetchOne, type ResourceContext } from './context.ts';

/** A sync answer with each result parsed on its own (one odd result never hides the others). */
export interface SyncAnswer {
  sync_id: string;
  sync_request_id: string | null;
  results: ItemResult<SyncResult>[];
}

/**
 * Outcome of POST /accounting/syncs (PLATFORM-FACTS F14, F15):
 * - `alreadyApplied: false`: the platform answered this post (a replay of the first answer
 *   included).
 * - `alreadyApplied: true`: an earlier post of this very body under this key took effect;
 *   `answer` is its recorded answer, or null when that answer was lost on the way.
 */
export type SyncOutcome =
  | { alreadyApplied: false; answer: SyncAnswer }
  | { alreadyApplied: true; answer: SyncAnswer | null };

/** Results of syncs (F14, F15), codings (F18) and ready-to-sync marks (F19). */
export function syncsResource(ctx: ResourceContext) {
  return {
    /**
     * Posts sync results under body.idempotency_key. Retries (5xx, 429, 504, lost responses)
     * resend the same body and key; a 7005 for a key this client sent with the same body is
     * "already applied" (F15); with a different body it is an IdempotencyConflictError.
     */
    async postResults(body: z.input<typeof SyncRequest>): Promise<SyncOutcome> {
      const path = '/accounting/syncs';
      checkBody(SyncRequest, body, `POST ${path}`);
      const result = await ctx.sendIdempotent(body.idempotency_key, { method: 'POST', path, body });
      if (result.alreadyApplied && result.body === null) return { alreadyApplied: true, answer: null };
      const answer = parseSyncAnswer(result.body, result.traceId);
      return result.alreadyApplied ? { alreadyApplied: true, answer } : { alreadyApplied: false, answer };
    },

    /** F18: codes an object (e.g. its accounting vendor under field external id "Merchant"). */
    async code(body: z.input<typeof CodingRequest>): Promise<CodingResponse> {
      checkBody(CodingRequest, body, 'POST /accounting/codings');
      return fetchOne(ctx, { method: 'POST', path: '/accounting/codings', body }, CodingResponse);
    },

    /** F19: marks up to 500 objects ready to sync (204). */
    async markReadyToSync(body: z.input<typeof ReadyToSyncRequest>): Promise<void> {
      checkBody(ReadyToSyncRequest, body, 'POST /accounting/ready-to-sync');
      await ctx.send({ method: 'POST', path: '/accounting/ready-to-sync', body });
    },
  };
}

export type SyncsResource = ReturnType<typeof syncsResource>;

/** The answer's envelope; its results are parsed one by one. */
const SyncAnswerEnvelope = z.looseObject({
  sync_id: z.string().min(1),
  sync_request_id: z.string().nullable().optional(),
  results: z.array(z.unknown()),
});

function parseSyncAnswer(body: unknown, traceId: string | null): SyncAnswer {
  const envelope = parseBody(SyncAnswerEnvelope, body, 'POST /accounting/syncs', traceId);
  return {
    sync_id: envelope.sync_id,
    sync_request_id: envelope.sync_request_id ?? null,
    results: parseItems(SyncResult, envelope.results, 'sync result'),
  };
}
