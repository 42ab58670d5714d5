import { setTimeout as sleep } from 'node:timers/promises';
import { recordSubscriptionCheck, type SubscriptionCheckOutcome } from '../../operations/index.ts';
import {
  ensureSubscription,
  type RegistrationDeps,
  type RegistrationResult,
} from './register-subscription.ts';
import { activeSubscriptionId, disableSubscription } from './subscriptions.ts';

/**
 * How often a running worker checks its subscription against the platform's list: one
 * GET /webhooks a minute, next to 200 requests in 10 s (docs/platform.md F3), bounds how long
 * webhooks stay lost after the platform forgets it.
 */
const CHECK_EVERY_MS = 60_000;

export interface SubscriptionCheckResult {
  outcome: SubscriptionCheckOutcome;
  /** The subscription in force after the check, if any. */
  subscriptionId: string | null;
  /** The registration made when none was in force (or the platform had lost ours). */
  registration?: RegistrationResult;
}

/**
 * Checks this worker's webhook subscription against the platform's own list (docs/platform.md
 * F20, F32) instead of trusting the worker's row: a subscription the platform does not list as
 * active (a restarted platform or stub, a deleted or disabled subscription) is registered again,
 * with one warning. With none in force here (a first start, an earlier registration that never
 * verified) it registers. Each outcome is recorded for `status` (src/operations/subscription-check.ts).
 */
export async function checkSubscription(deps: RegistrationDeps): Promise<SubscriptionCheckResult> {
  const { sql, publicUrl, log } = deps;
  const record = (outcome: SubscriptionCheckOutcome, subscriptionId: string | null, detail: string | null) =>
    recordSubscriptionCheck(sql, { endpointUrl: publicUrl, outcome, subscriptionId, detail });
  const ours = await activeSubscriptionId(sql, publicUrl);
  if (ours) {
    let listed: Awaited<ReturnType<RegistrationDeps['platform']['webhooks']['list']>>;
    try {
      listed = await deps.platform.webhooks.list();
    } catch (error) {
      const before = await record('failed', ours, `GET /webhooks failed: ${messageOf(error)}.`);
      // One line when checks start failing, not one a minute while the platform is down.
      if (before !== 'failed') {
        log.warn(
          { err: error, subscriptionId: ours },
          'the webhook subscription could not be checked against the platform',
        );
      }
      return { outcome: 'failed', subscriptionId: ours };
    }
    const mine = listed.find((item) => (item.ok ? item.value.id : item.id) === ours);
    // Only the id and the status are read; an entry of ours that cannot be parsed still counts.
    const status = mine?.ok ? (mine.value.status ?? null) : null;
    if (mine && (status === null || status === 'active')) {
      await record('present', ours, null);
      return { outcome: 'present', subscriptionId: ours };
    }
    log.warn(
      { subscriptionId: ours, platformStatus: mine ? status : 'not listed' },
      "the platform no longer has this worker's webhook subscription; registering it again",
    );
    await disableSubscription(sql, ours);
    const registration = await ensureSubscription(deps);
    const now = registration.status === 'busy' ? null : registration.subscriptionId;
    await record('missing', now, registrationDetail(registration, 'again'));
    return { outcome: 'missing', subscriptionId: now, registration };
  }
  const registration = await ensureSubscription(deps);
  if (registration.status === 'busy') return { outcome: 'present', subscriptionId: null, registration };
  if (registration.status === 'unverified') {
    await record('failed', null, registrationDetail(registration, 'first'));
    return { outcome: 'failed', subscriptionId: null, registration };
  }
  await record('present', registration.subscriptionId, null);
  return { outcome: 'present', subscriptionId: registration.subscriptionId, registration };
}

/**
 * Checks at once, then every CHECK_EVERY_MS until `signal` aborts (the worker stops). A check
 * that throws (the platform refuses the registration, the database is away) is logged and
 * recorded; the next one tries again.
 */
export async function keepSubscription(deps: RegistrationDeps & { everyMs?: number }): Promise<void> {
  const every = deps.everyMs ?? CHECK_EVERY_MS;
  while (!deps.signal?.aborted) {
    try {
      await checkSubscription(deps);
    } catch (error) {
      if (deps.signal?.aborted) return;
      deps.log.error({ err: error }, 'webhook subscription could not be checked or registered');
      await recordSubscriptionCheck(deps.sql, {
        endpointUrl: deps.publicUrl,
        outcome: 'failed',
        subscriptionId: null,
        detail: `Registering it failed: ${messageOf(error)}.`,
      }).catch(() => undefined);
    }
    await sleep(every, undefined, { signal: deps.signal }).catch(() => undefined);
  }
}

function registrationDetail(registration: RegistrationResult, which: 'first' | 'again'): string {
  if (registration.status === 'busy') return 'Another worker is registering it again.';
  if (registration.status === 'active')
    return `Registered ${which === 'again' ? 'again ' : ''}as ${registration.subscriptionId}.`;
  return `Registering it ${which === 'again' ? 'again ' : ''}failed: no challenge verified after ${registration.attempts} attempts; the next check tries again.`;
}

/** The error's message, first line, short: it goes into `status` (no secret is in it). */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n')[0]!.replace(/\.$/, '');
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
