import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import { type HledgerServer, requireHledgerWeb, startHledgerWeb } from '../../../support/hledger/server.ts';

requireHledgerWeb();

const JOURNAL = `account liabilities:card  ; type: L
account expenses:office  ; type: X

2024-01-01 ledgersync chart  ; ledgersync-chart:, currency:USD, dimension:project, project:apollo
    liabilities:card  0  ; role:card_liability
`;

const card = (objectId: string) => ({
  kind: 'card_transaction' as const,
  objectId,
  date: '2025-03-15',
  entityId: null,
  currency: { code: 'USD', exponent: 2 },
  memo: 'Lunch: team',
  totalMinor: 4250,
  counterpart: { role: 'card_holder' as const, id: 'h1', name: 'Ada Lovelace' },
  lines: [{ amountMinor: 4250, glAccountId: 'expenses:office', dimensions: { project: 'apollo' }, memo: '' }],
});

describe('hledger adapter: what lands in the journal', () => {
  let server: HledgerServer;
  beforeAll(async () => {
    server = await startHledgerWeb(JOURNAL);
  });
  afterAll(() => server.stop());

  it('a new adapter (nothing cached) replays an object it finds coded in the journal', async () => {
    const first = await createErp({ kind: 'hledger', url: server.url }).postMany([card('a (1), b')]);
    const again = await createErp({ kind: 'hledger', url: server.url }).postMany([card('a (1), b')]);
    expect(first[0]).toMatchObject({
      ok: true,
      referenceId: 'ls:card_transaction:a%20%281%29%2C%20b',
      replayed: false,
    });
    expect(again[0]).toMatchObject({
      ok: true,
      referenceId: first[0]!.ok && first[0]!.referenceId,
      replayed: true,
    });
  });

  it('writes payee | note, the object code, amounts and dimension tags an hledger user reads', async () => {
    await createErp({ kind: 'hledger', url: server.url }).postMany([card('c2')]);
    const text = await readFile(server.journal, 'utf8');
    expect(text).toContain('2025-03-15 (ls:card_transaction:c2) Ada Lovelace | Lunch\u2236 team');
    expect(text).toMatch(/expenses:office +USD 42\.50 +; project:apollo/);
    expect(text).toMatch(/liabilities:card +USD -42\.50 +; ls-role:card_liability/);
  });
});
