import type { Sql } from 'postgres';
import { CONNECT_COMMAND } from './grant-errors.ts';
import { loadGrant } from './grant-store.ts';

/**
 * Where the Authorization Code grant stands, in the words `status`, the status page and the
 * schedules use: never a token, only whether the business must (re)connect and by when.
 */

/** Warn this long before the consent's absolute lifetime (`refresh_token_expires_in`, F45) ends. */
export const RECONNECT_WARNING_MS = 7 * 24 * 3_600_000;

export interface GrantStanding {
  state: 'connected' | 'missing' | 'revoked';
  /** What stops syncs (missing, revoked): the schedules pause with it as the reason. */
  problem: string | null;
  /** A consent ending within RECONNECT_WARNING_MS: reconnect before this date. */
  attention: string | null;
  reconnectBy: string | null;
}

export async function grantStanding(sql: Sql, clientId: string, now = Date.now()): Promise<GrantStanding> {
  const grant = await loadGrant(sql, clientId);
  if (!grant) {
    return {
      state: 'missing',
      problem: `No platform consent is stored: the business must connect: run \`${CONNECT_COMMAND}\`. Syncs are paused until then.`,
      attention: null,
      reconnectBy: null,
    };
  }
  if (grant.revokedAt) {
    return {
      state: 'revoked',
      problem:
        `The platform revoked this worker's access on ${grant.revokedAt.toISOString()}` +
        `${grant.revokedReason ? ` (${grant.revokedReason})` : ''}: the business must reconnect: run \`${CONNECT_COMMAND}\`. Syncs are paused until then.`,
      attention: null,
      reconnectBy: null,
    };
  }
  const ends = grant.refreshExpiresAt;
  const soon = ends !== null && ends.getTime() - now < RECONNECT_WARNING_MS;
  return {
    state: 'connected',
    problem: null,
    attention: soon
      ? `The business's platform consent ends on ${ends.toISOString()} (it cannot be renewed past its lifetime): the business must reconnect by then: run \`${CONNECT_COMMAND}\`.`
      : null,
    reconnectBy: ends ? ends.toISOString() : null,
  };
}
