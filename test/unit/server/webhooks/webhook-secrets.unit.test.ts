import type { Sql } from 'postgres';
import { describe, expect, it } from 'vitest';
import { webhookSecrets } from '../../../../src/server/webhooks/webhook-secrets.ts';

function countingSql(rows: () => { secret: string }[]) {
  const calls = { n: 0 };
  const sql = (() => {
    calls.n++;
    return Promise.resolve(rows());
  }) as unknown as Sql;
  return { sql, calls };
}

describe('webhook secrets (docs/platform.md F21)', () => {
  it('WEBHOOK_SECRET overrides the stored subscriptions', async () => {
    const { sql, calls } = countingSql(() => [{ secret: 'whsec_stored_0000000000000' }]);
    const secrets = webhookSecrets(sql, 'whsec_configured_0000000000');
    expect(await secrets()).toEqual(['whsec_configured_0000000000']);
    expect(calls.n).toBe(0);
  });

  it('a burst of deliveries reads the stored secrets once; a fresh read bypasses the cache', async () => {
    let stored = [{ secret: 'whsec_one_0000000000000000' }];
    const { sql, calls } = countingSql(() => stored);
    const secrets = webhookSecrets(sql);
    await Promise.all(Array.from({ length: 100 }, () => secrets()));
    expect(calls.n).toBe(1);
    stored = [...stored, { secret: 'whsec_two_0000000000000000' }];
    expect(await secrets()).toHaveLength(1);
    // Fresh reads are limited to one a second: a flood of forged signatures costs one query.
    expect(await secrets({ fresh: true })).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect(await secrets({ fresh: true })).toHaveLength(2);
    expect(await secrets({ fresh: true })).toHaveLength(2);
    expect(calls.n).toBe(2);
  });
});
