import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { PAUSED_FOR_GRANT, pausedForGrant } from '../../../jobs/grant-pause.ts';
import { runCoaMirrorJob } from '../../../jobs/run-sync-jobs.ts';
import type { AppContext } from '../../../src/app/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { encryptedTokens } from '../../../src/platform/grant/grant-renewal.ts';
import { grantStanding, RECONNECT_WARNING_MS } from '../../../src/platform/grant/grant-standing.ts';
import { markGrantRevoked, saveConsentedGrant } from '../../../src/platform/grant/grant-store.ts';
import { TokenCipher } from '../../../src/platform/grant/token-cipher.ts';
import { useTestDatabase } from '../../support/db.ts';

/**
 * Where the Authorization Code grant stands (docs/platform.md F45, F46), as `status` and the
 * schedules read it: a consent near the end of its lifetime is named ahead, and a revoked or
 * missing one pauses scheduled runs instead of failing each of them.
 */
const db = useTestDatabase();
const cipher = new TokenCipher(randomBytes(32));
const DAY_S = 86_400;

async function consent(clientId: string, refreshExpiresInS: number | null): Promise<void> {
  await saveConsentedGrant(
    db.sql,
    clientId,
    encryptedTokens(
      cipher,
      {
        accessToken: 'svc_business_tok_access_standing',
        refreshToken: `svc_business_tok_refresh_${clientId}`,
        expiresInS: 3600,
        refreshExpiresInS,
        scope: 'accounting:read offline_access',
      },
      Date.now(),
    ),
  );
}

/** The parts of the worker's context the pause check reads. */
function appWith(grant: 'authorization_code' | 'client_credentials', clientId: string): AppContext {
  return {
    config: { PLATFORM_GRANT: grant, PLATFORM_CLIENT_ID: clientId },
    sql: db.sql,
    log: silentLogger,
  } as unknown as AppContext;
}

const job = (data: Record<string, unknown>) => ({ id: 'job-1', data }) as unknown as Job;

describe('Authorization Code grant standing (docs/platform.md F45, F46)', () => {
  it('F45: a consent whose lifetime ends within 7 days names the date to reconnect by; a later one does not', async () => {
    await consent('standing-soon', 3 * DAY_S);
    const soon = await grantStanding(db.sql, 'standing-soon');
    expect(soon.state).toBe('connected');
    expect(soon.problem).toBeNull();
    expect(soon.attention).toContain(soon.reconnectBy);
    expect(soon.attention).toContain('ledgersync connect');

    await consent('standing-later', 30 * DAY_S);
    const later = await grantStanding(db.sql, 'standing-later');
    expect(later.attention).toBeNull();
    expect(later.reconnectBy).not.toBeNull();
    // The same consent, seen a week before its end, is named.
    const weekBefore = Date.parse(later.reconnectBy!) - RECONNECT_WARNING_MS + 60_000;
    expect((await grantStanding(db.sql, 'standing-later', weekBefore)).attention).not.toBeNull();
  });

  it('F46: a revoked consent is a problem that says the business must reconnect, and never quotes a token', async () => {
    await consent('standing-revoked', null);
    const stored = await db.sql<{ refresh_token: string }[]>`
      select refresh_token from platform_grants where client_id = 'standing-revoked'`;
    expect(
      await markGrantRevoked(db.sql, 'standing-revoked', stored[0]!.refresh_token, 'invalid_grant'),
    ).toBe(true);
    const standing = await grantStanding(db.sql, 'standing-revoked');
    expect(standing.state).toBe('revoked');
    expect(standing.problem).toMatch(/must reconnect.*ledgersync connect/);
    expect(standing.problem).not.toContain('svc_business_tok_');
    expect((await grantStanding(db.sql, 'standing-none')).state).toBe('missing');
  });

  it('F46: a scheduled job under a revoked or missing consent records a paused run and does not fail', async () => {
    const result = await runCoaMirrorJob(
      job({ connectionId: null, trigger: 'schedule' }),
      appWith('authorization_code', 'standing-nobody'),
    );
    expect(result).toEqual({
      outcome: PAUSED_FOR_GRANT,
      kind: 'coa',
      reason: expect.stringMatching(/connect/),
    });
    const runs = await db.sql<{ kind: string; status: string; counts: { paused?: string } }[]>`
      select kind, status, counts from runs where kind = 'coa' order by id desc limit 1`;
    expect(runs[0]).toMatchObject({ kind: 'coa', status: 'succeeded' });
    expect(runs[0]!.counts.paused).toMatch(/must connect/);
  });

  it('F1: under client credentials the grant is never consulted: jobs run', async () => {
    expect(
      await pausedForGrant(
        job({ kind: 'transactions' }),
        appWith('client_credentials', 'standing-nobody'),
        'x',
      ),
    ).toBeNull();
    await consent('standing-ok', null);
    expect(
      await pausedForGrant(job({ kind: 'transactions' }), appWith('authorization_code', 'standing-ok'), 'x'),
    ).toBeNull();
  });
});
