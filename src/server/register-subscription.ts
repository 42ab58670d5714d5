import type { Sql } from 'postgres';
import type { Logger } from '../log.ts';
import type { PlatformClient } from '../platform/client.ts';
import { isValidWebhookSignature } from '../platform/resources/webhooks.ts';
import type { EventType } from '../platform/schemas/webhooks.ts';
import { withKindLock } from '../sync/kind-lock.ts';
import { SUBSCRIBED_EVENTS } from './event-actions.ts';
import {
  activeSubscriptionId,
  challengesSince,
  databaseNow,
  deleteChallenge,
  disableUnverified,
  insertSubscription,
  markSubscriptionActive,
} from './subscriptions.ts';

export interface RegistrationDeps {
  sql: Sql;
  platform: Pick<PlatformClient, 'webhooks'>;
  log: Logger;
  /** The public URL of this worker's POST /webhooks route (WEBHOOK_PUBLIC_URL). */
  publicUrl: string;
  eventTypes?: readonly EventType[];
  /** How long to wait for the platform's challenge. */
  timeoutMs?: number;
  pollMs?: number;
  /** Stops waiting for the challenge (the worker is shutting down). */
  signal?: AbortSignal;
}

export type RegistrationResult =
  | { status: 'active'; subscriptionId: string; created: boolean }
  | { status: 'unverified'; subscriptionId: string }
  | { status: 'busy' };

/**
 * Registers the webhook subscription once (docs/platform.md F20): POST /webhooks returns the
 * secret, the platform POSTs {challenge} to the endpoint (the receiver stores it, because it may
 * arrive before the secret is known, or at another replica), and the challenge whose signature
 * the new secret verifies (F21) is echoed through POST /webhooks/{id}/verify. An advisory lock
 * keeps replicas starting together from registering twice.
 */
export async function ensureSubscription(deps: RegistrationDeps): Promise<RegistrationResult> {
  const locked = await withKindLock(deps.sql, `ledgersync:webhook-registration:${deps.publicUrl}`, () =>
    register(deps),
  );
  return locked.busy ? { status: 'busy' } : locked.value;
}

async function register(deps: RegistrationDeps): Promise<RegistrationResult> {
  const existing = await activeSubscriptionId(deps.sql, deps.publicUrl);
  if (existing) return { status: 'active', subscriptionId: existing, created: false };
  const disabled = await disableUnverified(deps.sql, deps.publicUrl);
  if (disabled > 0)
    deps.log.warn({ disabled }, 'unverified webhook subscriptions from an earlier start disabled');
  const since = await databaseNow(deps.sql);
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
  const verified = await verifyWithChallenge(deps, sub.id, sub.secret, since);
  if (!verified) {
    deps.log.warn(
      { subscriptionId: sub.id },
      'no webhook challenge arrived; the subscription stays unverified',
    );
    return { status: 'unverified', subscriptionId: sub.id };
  }
  await markSubscriptionActive(deps.sql, sub.id);
  deps.log.info({ subscriptionId: sub.id, eventTypes }, 'webhook subscription verified');
  return { status: 'active', subscriptionId: sub.id, created: true };
}

/**
 * Challenges signed with the new secret come first; unsigned ones are tried too (F20 does not say
 * the challenge is signed, and echoing a wrong one only makes the platform refuse it). Challenges
 * signed with another secret are someone else's.
 */
async function verifyWithChallenge(
  deps: RegistrationDeps,
  subscriptionId: string,
  secret: string,
  since: Date,
): Promise<boolean> {
  const deadline = Date.now() + (deps.timeoutMs ?? 30_000);
  const tried = new Set<string>();
  for (;;) {
    const candidates = (await challengesSince(deps.sql, since))
      .filter((c) => !tried.has(c.id))
      .filter((c) => c.signature === null || isValidWebhookSignature(secret, c.rawBody, c.signature))
      .sort((a, b) => Number(a.signature === null) - Number(b.signature === null));
    for (const candidate of candidates.slice(0, 3)) {
      tried.add(candidate.id);
      try {
        await deps.platform.webhooks.verify(subscriptionId, candidate.challenge);
        await deleteChallenge(deps.sql, candidate.id);
        return true;
      } catch (error) {
        deps.log.warn({ err: error, subscriptionId }, 'the platform refused a webhook challenge');
      }
    }
    if (Date.now() >= deadline || deps.signal?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 100));
  }
}
