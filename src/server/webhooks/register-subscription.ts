import type { Sql } from 'postgres';
import type { Logger } from '../../log.ts';
import type { EventType, PlatformClient } from '../../platform/index.ts';
import { isValidWebhookSignature } from '../../platform/index.ts';
import { withAdvisoryLock } from '../../sync/advisory-lock.ts';
import { SUBSCRIBED_EVENTS } from './event-actions.ts';
import {
  activeSubscriptionId,
  closeRegistration,
  disableUnverified,
  insertSubscription,
  markSubscriptionActive,
  noteRegistrationSubscription,
  openChallenges,
  openRegistration,
} from './subscriptions.ts';

export interface RegistrationDeps {
  sql: Sql;
  platform: Pick<PlatformClient, 'webhooks'>;
  log: Logger;
  /** The public URL of this worker's POST /webhooks route (WEBHOOK_PUBLIC_URL). */
  publicUrl: string;
  eventTypes?: readonly EventType[];
  /** How long to wait for the platform's challenge, per attempt. */
  timeoutMs?: number;
  pollMs?: number;
  /**
   * Unsigned challenges (F20 does not say the challenge is signed) are tried only when no signed
   * one has come this long after subscribing: a stranger's unsigned challenge costs no verify
   * call while the platform's signed one is on its way.
   */
  unsignedAfterMs?: number;
  /** Registrations tried before giving up (a new subscription each); default 6. */
  attempts?: number;
  /** Wait before the second attempt; doubles each time, at most a minute. */
  retryDelayMs?: number;
  /** Stops waiting for the challenge and stops retrying (the worker is shutting down). */
  signal?: AbortSignal;
}

export type RegistrationResult =
  | { status: 'active'; subscriptionId: string; created: boolean; attempts: number }
  | { status: 'unverified'; subscriptionId: string; attempts: number }
  | { status: 'busy' };

type Attempt =
  | { status: 'active'; subscriptionId: string; created: boolean }
  | { status: 'unverified'; subscriptionId: string }
  | { status: 'busy' };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Registers the webhook subscription (docs/platform.md F20): POST /webhooks returns the secret,
 * the platform POSTs {challenge} to the endpoint, and the challenge whose signature the new
 * secret verifies (F21) is echoed through POST /webhooks/{id}/verify.
 *
 * The receiver keeps challenges only while a registration window is open (opened here before
 * subscribing, because the challenge may arrive before the subscribe call answers; closed when
 * the attempt ends), a bounded number each (docs/decisions.md "A challenge is accepted only while
 * this worker registers"). When no challenge verifies in time the attempt's subscription stays
 * unverified and the registration is tried again with a new one, up to `attempts` times. An
 * advisory lock keeps replicas starting together from registering twice.
 */
export async function ensureSubscription(deps: RegistrationDeps): Promise<RegistrationResult> {
  const attempts = deps.attempts ?? 6;
  for (let attempt = 1; ; attempt++) {
    const locked = await withAdvisoryLock(deps.sql, `ledgersync:webhook-registration:${deps.publicUrl}`, () =>
      register(deps),
    );
    const result: Attempt = locked.busy ? { status: 'busy' } : locked.value;
    if (result.status !== 'unverified') {
      return result.status === 'busy' ? result : { ...result, attempts: attempt };
    }
    if (attempt >= attempts || deps.signal?.aborted) {
      deps.log.error(
        { subscriptionId: result.subscriptionId, attempts: attempt },
        'the webhook subscription could not be verified; webhooks will not arrive until the worker restarts',
      );
      return { ...result, attempts: attempt };
    }
    const delayMs = Math.min((deps.retryDelayMs ?? 5_000) * 2 ** (attempt - 1), 60_000);
    deps.log.warn(
      { subscriptionId: result.subscriptionId, attempt, retryInMs: delayMs },
      'no webhook challenge verified; registering again',
    );
    await sleep(delayMs, deps.signal);
    if (deps.signal?.aborted) return { ...result, attempts: attempt };
  }
}

async function register(deps: RegistrationDeps): Promise<Attempt> {
  const existing = await activeSubscriptionId(deps.sql, deps.publicUrl);
  if (existing) return { status: 'active', subscriptionId: existing, created: false };
  const disabled = await disableUnverified(deps.sql, deps.publicUrl);
  if (disabled > 0) deps.log.warn({ disabled }, 'unverified webhook subscriptions disabled');
  const timeoutMs = deps.timeoutMs ?? 30_000;
  // A little longer than the wait: a challenge arriving as the wait ends is still kept.
  const registration = await openRegistration(deps.sql, deps.publicUrl, timeoutMs + 5_000);
  try {
    const eventTypes = [...(deps.eventTypes ?? SUBSCRIBED_EVENTS)];
    const sub = await deps.platform.webhooks.subscribe({
      endpoint_url: deps.publicUrl,
      event_types: eventTypes,
    });
    if (!sub.secret) throw new Error(`POST /webhooks returned no secret for subscription ${sub.id}`);
    await insertSubscription(deps.sql, {
      id: sub.id,
      endpointUrl: deps.publicUrl,
      eventTypes,
      secret: sub.secret,
    });
    await noteRegistrationSubscription(deps.sql, registration, sub.id);
    const verified = await verifyWithChallenge(deps, sub.id, sub.secret, timeoutMs);
    if (!verified) return { status: 'unverified', subscriptionId: sub.id };
    await markSubscriptionActive(deps.sql, sub.id);
    deps.log.info({ subscriptionId: sub.id, eventTypes }, 'webhook subscription verified');
    return { status: 'active', subscriptionId: sub.id, created: true };
  } finally {
    await closeRegistration(deps.sql, registration);
  }
}

/**
 * Challenges signed with the new secret are tried first; unsigned ones only once none signed has
 * come for `unsignedAfterMs`; those signed with another secret are someone else's. Each is tried
 * once.
 */
async function verifyWithChallenge(
  deps: RegistrationDeps,
  subscriptionId: string,
  secret: string,
  timeoutMs: number,
): Promise<boolean> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const tried = new Set<string>();
  for (;;) {
    const fresh = (await openChallenges(deps.sql)).filter((c) => !tried.has(c.id));
    const signed = fresh.filter(
      (c) => c.signature && isValidWebhookSignature(secret, c.rawBody, c.signature),
    );
    const unsignedDue = Date.now() - started >= (deps.unsignedAfterMs ?? 3_000);
    const unsigned = unsignedDue ? fresh.filter((c) => c.signature === null) : [];
    for (const candidate of [...signed, ...unsigned].slice(0, 3)) {
      tried.add(candidate.id);
      try {
        await deps.platform.webhooks.verify(subscriptionId, candidate.challenge);
        return true;
      } catch (error) {
        deps.log.warn({ err: error, subscriptionId }, 'the platform refused a webhook challenge');
      }
    }
    if (Date.now() >= deadline || deps.signal?.aborted) return false;
    await sleep(deps.pollMs ?? 100, deps.signal);
  }
}
