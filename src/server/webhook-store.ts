import type { Sql } from 'postgres';

/** Processed event ids are kept two days: longer than the oldest event accepted (a day). */
const EVENT_RETENTION = '2 days';
/** Unverified challenges: kept 10 minutes, at most 100 in that time (anyone can POST one). */
const CHALLENGE_RETENTION = '10 minutes';
const CHALLENGE_CAP = 100;

/**
 * Records a delivery's event id. False when it was seen before: F21 redelivers the same id on
 * retries and may deliver an event twice, so a repeated id is a no-op.
 */
export async function recordEventOnce(
  sql: Sql,
  event: { id: string; type: string; created_at: string },
): Promise<boolean> {
  const inserted = await sql`
    insert into webhook_events (event_id, type, created_at)
    values (${event.id}, ${event.type}, ${event.created_at})
    on conflict (event_id) do nothing`;
  return inserted.count === 1;
}

/** Keeps a challenge POSTed to the endpoint (F20) for the registration code to check and echo. */
export async function storeChallenge(
  sql: Sql,
  challenge: { challenge: string; rawBody: string; signature: string | null },
): Promise<boolean> {
  const inserted = await sql`
    insert into webhook_challenges (challenge, raw_body, signature)
    select ${challenge.challenge}, ${challenge.rawBody}, ${challenge.signature}
    where (select count(*) from webhook_challenges
           where received_at > now() - ${CHALLENGE_RETENTION}::interval) < ${CHALLENGE_CAP}`;
  return inserted.count === 1;
}

export async function purgeWebhookState(sql: Sql): Promise<void> {
  await sql`delete from webhook_events where received_at < now() - ${EVENT_RETENTION}::interval`;
  await sql`delete from webhook_challenges where received_at < now() - ${CHALLENGE_RETENTION}::interval`;
}
