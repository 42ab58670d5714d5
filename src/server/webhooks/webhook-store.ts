import type { Sql } from 'postgres';

/** Processed event ids are kept two days: longer than the oldest event accepted (a day). */
const EVENT_RETENTION = '2 days';
/** Challenges live as long as their registration; closed registrations are kept a day. */
const CHALLENGE_RETENTION = '10 minutes';
const REGISTRATION_RETENTION = '1 day';
/**
 * Challenges kept per registration. Anyone can POST one, so those nobody vouches for are few;
 * those signed with a secret of ours (docs/platform.md F21) come from the platform and are
 * stored past that, so strangers cannot crowd them out.
 */
export const CHALLENGE_CAP = { untrusted: 20, trusted: 50 } as const;

/** Where a delivered event id stands: new, recorded but not yet enqueued, or done. */
export type EventRecord = 'new' | 'pending' | 'done';

/**
 * Records a delivery's event id and commits it, before anything is enqueued (docs/decisions.md
 * "Webhooks: commit, then enqueue"). F21 redelivers the same id after a failure and may deliver
 * an event twice: an id already enqueued is `done` (a no-op); one whose enqueue failed is
 * `pending`, and is enqueued again.
 */
export async function recordEvent(
  sql: Sql,
  event: { id: string; type: string; created_at: string },
): Promise<EventRecord> {
  const [row] = await sql<{ state: EventRecord }[]>`
    with inserted as (
      insert into webhook_events (event_id, type, created_at)
      values (${event.id}, ${event.type}, ${event.created_at})
      on conflict (event_id) do nothing
      returning event_id
    )
    select coalesce(
      (select 'new' from inserted),
      (select case when enqueued_at is null then 'pending' else 'done' end
       from webhook_events where event_id = ${event.id}),
      'new'
    ) as state`;
  return row?.state ?? 'new';
}

/** The event's job is in the queue: a later delivery of the id is a duplicate. */
export async function markEventEnqueued(sql: Sql, eventId: string): Promise<void> {
  await sql`
    update webhook_events set enqueued_at = now() where event_id = ${eventId} and enqueued_at is null`;
}

export type ChallengeOutcome = 'stored' | 'no_registration' | 'full';

async function insertChallenge(
  sql: Sql,
  challenge: { challenge: string; rawBody: string; signature: string | null },
  trusted: boolean,
): Promise<boolean> {
  const cap = trusted ? CHALLENGE_CAP.trusted : CHALLENGE_CAP.untrusted;
  // The slot is taken on the registration's row: concurrent challenges wait for its lock and
  // see each other's count, so no more than `cap` are ever kept.
  const inserted = await sql`
    with slot as (
      update webhook_registrations
      set untrusted_challenges = untrusted_challenges + case when ${trusted} then 0 else 1 end,
          trusted_challenges = trusted_challenges + case when ${trusted} then 1 else 0 end
      where id = (select id from webhook_registrations
                  where closed_at is null and expires_at > now()
                  order by id desc limit 1)
        and closed_at is null
        and case when ${trusted} then trusted_challenges else untrusted_challenges end < ${cap}
      returning id
    )
    insert into webhook_challenges (challenge, raw_body, signature, trusted, registration_id)
    select ${challenge.challenge}, ${challenge.rawBody}, ${challenge.signature}, ${trusted}, slot.id
    from slot`;
  return inserted.count === 1;
}

/**
 * Keeps a challenge POSTed to the endpoint (F20) for the registration code to check and echo,
 * only while a registration of this worker is open (docs/decisions.md "A challenge is accepted
 * only while this worker registers"), tied to the newest open registration. The first
 * CHALLENGE_CAP.untrusted of a registration are kept as they come; past that only one that
 * `trusted()` vouches for (signed with a secret of ours) is kept, so a flood of strangers'
 * challenges cannot crowd out the platform's.
 */
export async function storeChallenge(
  sql: Sql,
  challenge: { challenge: string; rawBody: string; signature: string | null },
  trusted: () => Promise<boolean>,
): Promise<ChallengeOutcome> {
  if (await insertChallenge(sql, challenge, false)) return 'stored';
  const [open] = await sql<{ open: boolean }[]>`
    select exists (select 1 from webhook_registrations
                   where closed_at is null and expires_at > now()) as open`;
  if (!open?.open) return 'no_registration';
  if (challenge.signature && (await trusted()) && (await insertChallenge(sql, challenge, true)))
    return 'stored';
  return 'full';
}

export async function purgeWebhookState(sql: Sql): Promise<void> {
  await sql`delete from webhook_events where received_at < now() - ${EVENT_RETENTION}::interval`;
  await sql`delete from webhook_challenges where received_at < now() - ${CHALLENGE_RETENTION}::interval`;
  await sql`
    delete from webhook_registrations
    where coalesce(closed_at, expires_at) < now() - ${REGISTRATION_RETENTION}::interval`;
}
