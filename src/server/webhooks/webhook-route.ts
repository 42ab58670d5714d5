import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Sql } from 'postgres';
import { classifyRedisError, redisCause } from '../../infra/index.ts';
import type { Logger } from '../../log.ts';
import {
  ChallengeDelivery,
  isValidWebhookSignature,
  SIGNATURE_HEADER,
  WebhookEvent,
} from '../../platform/index.ts';
import { EnqueueError } from '../../queue/index.ts';
import { type Acceptance, type AcceptDeps, acceptEvent } from './accept-event.ts';
import { knownSecrets } from './subscriptions.ts';
import type { SecretSource } from './webhook-secrets.ts';
import { purgeWebhookState, storeChallenge } from './webhook-store.ts';

export interface WebhookRouteDeps extends AcceptDeps {
  /** Secrets that may sign a delivery: WEBHOOK_SECRET, or the stored subscriptions' (F21). */
  secrets: SecretSource;
  /** Bodies above this are refused with 413. */
  maxBodyBytes: number;
  /** F21 gives 10 s; we answer within this or say 503 so the platform retries. */
  answerWithinMs: number;
}

/**
 * What the worker's log says about one delivery: accepted (acted on, or a duplicate or an event
 * with nothing to do, with the reason) or refused (with the reason). `quiet`: a {challenge} body
 * that was not kept, which anyone can post as often as they like: its line is at debug level. A
 * delivery refused because its job could not be queued has no DeliveryLine: its line is the
 * "not enqueued" one below (one warning per Redis outage).
 */
type DeliveryLine = {
  outcome: 'accepted' | 'duplicate' | 'ignored' | 'refused';
  reason?: string;
  eventId?: string;
  type?: string;
  action?: string;
  syncRequestId?: string;
  quiet?: boolean;
};

type Answer = { status: number; body: Record<string, unknown>; line?: DeliveryLine };

const STATUS_OF: Record<Acceptance['status'], number> = {
  accepted: 200,
  duplicate: 200,
  ignored: 200,
  invalid: 400,
};

function parseJson(raw: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/**
 * A {challenge} body (F20). Anyone can POST one, so it is kept only while this worker is
 * registering a subscription (register-subscription.ts opens the window), a bounded number per
 * registration; past that cap only a challenge signed with a secret of ours is kept, so
 * strangers cannot crowd it out. Outside a registration a challenge is ignored: 200, nothing
 * stored. A full window answers 503: the platform redelivers (F21), and by then the new
 * subscription's secret is stored here and vouches for its challenge. (docs/decisions.md "A challenge is accepted only while this
 * worker registers".)
 */
async function answerChallenge(
  deps: WebhookRouteDeps,
  challenge: string,
  raw: Buffer,
  signature: string | undefined,
): Promise<Answer> {
  // Read afresh, not through the delivery cache: the challenge may come before the new
  // subscription's secret is stored, and a cache filled then would refuse its first events.
  const trusted = async () =>
    (await knownSecrets(deps.sql)).some((s) => isValidWebhookSignature(s, raw, signature));
  const outcome = await storeChallenge(
    deps.sql,
    { challenge, rawBody: raw.toString('utf8'), signature: signature ?? null },
    trusted,
  );
  if (outcome === 'stored') {
    return {
      status: 200,
      body: { status: 'challenge received' },
      line: { outcome: 'accepted', type: 'challenge', reason: 'challenge stored for the registration' },
    };
  }
  if (outcome === 'no_registration') {
    const reason = 'no webhook registration in progress';
    return {
      status: 200,
      body: { status: 'ignored', reason },
      line: { outcome: 'ignored', type: 'challenge', reason, quiet: true },
    };
  }
  return {
    status: 503,
    body: { error: 'busy, retry later' },
    line: { outcome: 'refused', type: 'challenge', reason: 'challenge window full', quiet: true },
  };
}

function refused(status: number, error: string): Answer {
  return { status, body: { error }, line: { outcome: 'refused', reason: error } };
}

/** The line of an event the worker acted on, skipped or refused (acceptEvent's answer). */
function acceptanceLine(event: WebhookEvent, acceptance: Acceptance): DeliveryLine {
  const syncRequestId = event.object.sync_request_id;
  const about = { eventId: event.id, type: event.type, ...(syncRequestId ? { syncRequestId } : {}) };
  switch (acceptance.status) {
    case 'accepted':
      return { outcome: 'accepted', ...about, action: acceptance.action };
    case 'duplicate':
      return { outcome: 'duplicate', ...about, reason: 'event already received' };
    case 'ignored':
      return { outcome: 'ignored', ...about, reason: acceptance.reason };
    case 'invalid':
      return { outcome: 'refused', ...about, reason: acceptance.reason };
  }
}

/** One line per delivery; the body and the signature never reach the log. */
function logDelivery(log: Logger, status: number, line: DeliveryLine | undefined): void {
  if (!line) return;
  const { quiet, ...fields } = line;
  const message = line.outcome === 'refused' ? 'webhook refused' : 'webhook accepted';
  if (quiet) log.debug({ status, ...fields }, message);
  else log.info({ status, ...fields }, message);
}

/**
 * POST /webhooks: size (413) → signature over the raw bytes, constant time (401) → JSON (400) →
 * envelope (400) → age, duplicate id, action (200); 503 when the event's job could not be
 * enqueued, so the platform redelivers. A {challenge} body goes to answerChallenge.
 */
async function answer(deps: WebhookRouteDeps, raw: Buffer, signature: string | undefined): Promise<Answer> {
  const json = parseJson(raw);
  const body = json.ok ? json.value : undefined;
  const challenge = ChallengeDelivery.safeParse(body);
  if (challenge.success && (body as { type?: unknown }).type === undefined) {
    return answerChallenge(deps, challenge.data.challenge, raw, signature);
  }
  const verifies = (secrets: string[]) => secrets.some((s) => isValidWebhookSignature(s, raw, signature));
  const signed = verifies(await deps.secrets()) || verifies(await deps.secrets({ fresh: true }));
  if (!signed) return refused(401, 'invalid signature');
  if (!json.ok) return refused(400, 'body is not JSON');
  const event = WebhookEvent.safeParse(json.value);
  if (!event.success) return refused(400, 'not a webhook event envelope');
  try {
    const acceptance = await acceptEvent(deps, event.data);
    return {
      status: STATUS_OF[acceptance.status],
      body: acceptance,
      line: acceptanceLine(event.data, acceptance),
    };
  } catch (error) {
    if (!(error instanceof EnqueueError)) throw error;
    // The event is recorded; its redelivery enqueues it. A Redis outage is one line (logged by
    // the queues' watch, src/infra/redis-connection.ts); each delivery it refuses is a debug line.
    const watch = deps.queues.redis;
    if (classifyRedisError(error) !== 'other') watch?.error(error);
    const fields = { eventId: event.data.id, type: event.data.type, cause: redisCause(error) };
    const line = 'webhook event not enqueued; the platform will redeliver it';
    if (watch?.isDown) deps.log.debug(fields, line);
    else deps.log.warn(fields, line);
    return { status: 503, body: { error: 'queue unavailable, retry later' } };
  }
}

function withinDeadline(work: Promise<Answer>, ms: number, log: Logger): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Answer>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          status: 503,
          body: { error: 'busy, retry later' },
          line: { outcome: 'refused', reason: `not answered within ${ms} ms; the platform redelivers` },
        }),
      ms,
    );
  });
  const guarded = work.catch((error: unknown) => {
    log.error({ err: error }, 'webhook could not be processed');
    return { status: 503, body: { error: 'temporarily unavailable, retry later' } };
  });
  return Promise.race([guarded, late]).finally(() => clearTimeout(timer));
}

export function webhookRoute(deps: WebhookRouteDeps) {
  let lastPurge = 0;
  // An hour of this process's own time between purges: nothing here is compared with another clock.
  const purgeHourly = (sql: Sql) => {
    if (Date.now() - lastPurge < 3_600_000) return;
    lastPurge = Date.now();
    void purgeWebhookState(sql).catch((error) => deps.log.warn({ err: error }, 'webhook state purge failed'));
  };
  return async (app: FastifyInstance) => {
    // Raw bytes for every content type: the signature covers the body exactly as sent (F21).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.maxBodyBytes }, (_req, body, done) =>
      done(null, body),
    );
    // Refused before the handler runs (a body over maxBodyBytes: 413): its line is written here.
    app.addHook('onError', async (request, reply, error) => {
      if (request.url.split('?')[0] !== '/webhooks') return;
      const status =
        reply.statusCode >= 400 ? reply.statusCode : (error as { statusCode?: number }).statusCode;
      logDelivery(deps.log, status ?? 500, { outcome: 'refused', reason: error.message });
    });
    app.post('/webhooks', async (request, reply: FastifyReply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers[SIGNATURE_HEADER];
      const signature = Array.isArray(header) ? header[0] : header;
      const result = await withinDeadline(answer(deps, raw, signature), deps.answerWithinMs, deps.log);
      logDelivery(deps.log, result.status, result.line);
      if (result.status === 200) purgeHourly(deps.sql);
      return reply.code(result.status).send(result.body);
    });
  };
}
