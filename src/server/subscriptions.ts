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

export async function challengesSince(sql: Sql, since: Date): Promise<StoredChallenge[]> {
  const rows = await sql<{ id: string; challenge: string; raw_body: string; signature: string | null }[]>`
    select id, challenge, raw_body, signature from webhook_challenges
    where received_at >= ${since} order by id`;
  return rows.map((r) => ({
    id: String(r.id),
    challenge: r.challenge,
    rawBody: r.raw_body,
    signature: r.signature,
  }));
}

export async function deleteChallenge(sql: Sql, id: string): Promise<void> {
  await sql`delete from webhook_challenges where id = ${id}`;
}

export async function databaseNow(sql: Sql): Promise<Date> {
  const [row] = await sql<{ now: Date }[]>`select now() as now`;
  return row!.now;
}
