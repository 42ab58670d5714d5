import type { Sql } from 'postgres';

/** The `webhook_subscriptions` table: subscriptions this worker registered and their secrets. */

/** Secrets that may sign deliveries: active subscriptions, and pending ones (verify may race). */
export async function knownSecrets(sql: Sql): Promise<string[]> {
  const rows = await sql<{ secret: string }[]>`
    select secret from webhook_subscriptions where status in ('active', 'pending_verification')`;
  return rows.map((r) => r.secret);
}

export async function activeSubscriptionId(sql: Sql, endpointUrl: string): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`
    select id from webhook_subscriptions where endpoint_url = ${endpointUrl} and status = 'active'
    order by created_at desc limit 1`;
  return row?.id ?? null;
}

export async function insertSubscription(
  sql: Sql,
  sub: { id: string; endpointUrl: string; eventTypes: readonly string[]; secret: string },
): Promise<void> {
  await sql`
    insert into webhook_subscriptions (id, endpoint_url, event_types, secret, status)
    values (${sub.id}, ${sub.endpointUrl}, ${sql.array(sub.eventTypes as string[])}, ${sub.secret}, 'pending_verification')
    on conflict (id) do nothing`;
}

export async function markSubscriptionActive(sql: Sql, id: string): Promise<void> {
  await sql`update webhook_subscriptions set status = 'active', verified_at = now() where id = ${id}`;
}

/**
 * A subscription the platform no longer has (docs/platform.md F32: it is not in the list): its
 * secret stops being accepted, and the next registration makes a new one.
 */
export async function disableSubscription(sql: Sql, id: string): Promise<void> {
  await sql`update webhook_subscriptions set status = 'disabled' where id = ${id}`;
}

/** Pending subscriptions an earlier start left unverified: their secrets stop being accepted. */
export async function disableUnverified(sql: Sql, endpointUrl: string): Promise<number> {
  const updated = await sql`
    update webhook_subscriptions set status = 'disabled'
    where endpoint_url = ${endpointUrl} and status = 'pending_verification'`;
  return updated.count;
}

export interface StoredChallenge {
  id: string;
  challenge: string;
  rawBody: string;
  signature: string | null;
}

/**
 * Opens a registration window (docs/platform.md F20): until it is closed or `ttlMs` has passed,
 * the receiver keeps the challenges POSTed to the endpoint; outside one it keeps none.
 */
export async function openRegistration(sql: Sql, endpointUrl: string, ttlMs: number): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into webhook_registrations (endpoint_url, expires_at)
    values (${endpointUrl}, now() + ${ttlMs} * interval '1 millisecond')
    returning id`;
  return String(row!.id);
}

export async function noteRegistrationSubscription(
  sql: Sql,
  registrationId: string,
  subscriptionId: string,
): Promise<void> {
  await sql`update webhook_registrations set subscription_id = ${subscriptionId} where id = ${registrationId}`;
}

/** Closes the window and drops the challenges it gathered. */
export async function closeRegistration(sql: Sql, registrationId: string): Promise<void> {
  await sql`delete from webhook_challenges where registration_id = ${registrationId}`;
  await sql`update webhook_registrations set closed_at = now() where id = ${registrationId}`;
}

/**
 * Challenges of the registrations open now, oldest first. A challenge goes to the newest open
 * registration, which may be another replica's (or another endpoint's) opened at the same time:
 * each registration reads them all and keeps those its own secret signed.
 */
export async function openChallenges(sql: Sql): Promise<StoredChallenge[]> {
  const rows = await sql<{ id: string; challenge: string; raw_body: string; signature: string | null }[]>`
    select c.id, c.challenge, c.raw_body, c.signature
    from webhook_challenges c join webhook_registrations r on r.id = c.registration_id
    where r.closed_at is null and r.expires_at > now()
    order by c.id`;
  return rows.map((r) => ({
    id: String(r.id),
    challenge: r.challenge,
    rawBody: r.raw_body,
    signature: r.signature,
  }));
}
