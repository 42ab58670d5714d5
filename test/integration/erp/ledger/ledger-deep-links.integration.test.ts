import { beforeAll, describe, expect, it } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import { postOne } from '../../../../src/erp/post-one.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { ledgerBill } from '../../../support/ledger-inputs.ts';

/**
 * docs/platform.md F42: the ledger gives a bill a deep link only under a configured public base
 * URL (ERP_PUBLIC_URL); without one it gives none, never a `http://localhost…` link.
 */

const db = useTestDatabase({ migrate: false });
let schema: string;

beforeAll(async () => {
  schema = db.newSchema('ledger');
  await seedLedger(db.sql, schema, { seed: 5 });
});

describe('ledger deep links (docs/platform.md F42)', () => {
  it('F42: without a public base URL a posted bill, and its replay, carry no deep link', async () => {
    const erp = createErp({ kind: 'ledger', sql: db.sql, schema });
    const posted = await postOne(erp, ledgerBill('no-base-bill'));
    expect(posted).toMatchObject({ ok: true });
    expect(posted.ok && 'deepLinkUrl' in posted).toBe(false);
    const replayed = await postOne(erp, ledgerBill('no-base-bill'));
    expect(replayed).toMatchObject({ ok: true, replayed: true });
    expect('deepLinkUrl' in replayed).toBe(false);
  });

  it('F42: with a public base URL the bill links under it, and its replay gives the same link', async () => {
    const erp = createErp({
      kind: 'ledger',
      sql: db.sql,
      schema,
      deepLinkBase: 'https://books.example.com/ledger/',
    });
    const posted = await postOne(erp, ledgerBill('base-bill'));
    if (!posted.ok) throw new Error(posted.error.message);
    expect(posted.deepLinkUrl).toBe(
      `https://books.example.com/ledger/bills/${encodeURIComponent(posted.referenceId)}`,
    );
    expect(await postOne(erp, ledgerBill('base-bill'))).toMatchObject({
      ok: true,
      replayed: true,
      deepLinkUrl: posted.deepLinkUrl,
    });
  });
});
