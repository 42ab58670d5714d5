import type { Sql } from 'postgres';
import { spanOf } from './span.ts';

/**
 * The last check of the worker's webhook subscription against the platform's own list
 * (docs/platform.md F20, F32), one row per endpoint: the worker writes it at start and on its
 * schedule (src/server/webhooks/check-subscription.ts), `status` and the status page read it. A
 * worker used to trust its own row: after the platform lost the subscription (a restarted stub),
 * webhooks and the sync button stopped with nothing said anywhere.
 */
export type SubscriptionCheckOutcome = 'present' | 'missing' | 'failed';

export interface SubscriptionCheck {
  endpointUrl: string;
  outcome: SubscriptionCheckOutcome;
  /** The subscription in force after the check (after registering again), if any. */
  subscriptionId: string | null;
  /** What was done, or why the check failed: one sentence, never a secret. */
  detail: string | null;
}

/** Records a check; returns the outcome of the one before it (null for the first). */
export async function recordSubscriptionCheck(
  sql: Sql,
  check: SubscriptionCheck,
): Promise<SubscriptionCheckOutcome | null> {
  const [before] = await sql<{ outcome: SubscriptionCheckOutcome }[]>`
    select outcome from webhook_subscription_checks where endpoint_url = ${check.endpointUrl}`;
  await sql`
    insert into webhook_subscription_checks (endpoint_url, checked_at, outcome, subscription_id, detail)
    values (${check.endpointUrl}, now(), ${check.outcome}, ${check.subscriptionId}, ${check.detail})
    on conflict (endpoint_url) do update set
      checked_at = excluded.checked_at, outcome = excluded.outcome,
      subscription_id = excluded.subscription_id, detail = excluded.detail`;
  return before?.outcome ?? null;
}

/**
 * What `status` says about the last checks that found a subscription missing or could not read
 * the list, one sentence each (none when every endpoint's last check found it in place).
 */
export async function subscriptionCheckFindings(sql: Sql, now = Date.now()): Promise<string[]> {
  const rows = await sql<
    { endpointUrl: string; checkedAt: Date; outcome: SubscriptionCheckOutcome; detail: string | null }[]
  >`
    select endpoint_url as "endpointUrl", checked_at as "checkedAt", outcome, detail
    from webhook_subscription_checks where outcome <> 'present' order by endpoint_url`;
  return rows.map((row) => {
    const ago = `${spanOf(Math.max(0, Math.round((now - row.checkedAt.getTime()) / 1000)))} ago`;
    const detail = row.detail ? ` ${row.detail}` : '';
    return row.outcome === 'missing'
      ? `The platform no longer had the webhook subscription of ${row.endpointUrl} (checked ${ago}):${detail} Webhooks and sync-button presses sent while it was missing never reached the worker; \`ledgersync sync all\` picks up what they announced.`
      : `The webhook subscription of ${row.endpointUrl} could not be checked or registered (${ago}):${detail} Until a check succeeds, webhooks and the sync button may not reach the worker.`;
  });
}

/** The health banner with these findings added: they need a look, and do not stop syncs. */
export function withSubscriptionFindings<
  T extends { state: 'ok' | 'attention' | 'problem'; findings: string[] },
>(judged: T, findings: readonly string[]): T {
  if (findings.length === 0) return judged;
  const rest = judged.state === 'ok' ? [] : judged.findings;
  return {
    ...judged,
    state: judged.state === 'problem' ? 'problem' : 'attention',
    findings: [...rest, ...findings],
  };
}
