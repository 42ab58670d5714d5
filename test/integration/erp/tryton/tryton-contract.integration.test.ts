import { describe } from 'vitest';
import { createErp } from '../../../../src/erp/index.ts';
import { runErpContract } from '../../../contract/erp-contract.ts';
import { readTrytonBooks } from '../../../support/tryton/fixture.ts';
import { requireTryton, useTryton } from '../../../support/tryton/use-tryton.ts';
import { showAllCompanies } from '../../../support/tryton/world-setup.ts';

await requireTryton();

describe('Tryton 6.0 over JSON-RPC', () => {
  const tryton = useTryton();

  runErpContract('tryton', async () => {
    const books = await readTrytonBooks(tryton.connection);
    return {
      erp: createErp({ kind: 'tryton', ...tryton.connection }),
      // A port nothing listens on: every call fails before reaching Tryton.
      unreachableErp: createErp({
        kind: 'tryton',
        ...tryton.connection,
        url: 'http://127.0.0.1:1/',
        timeoutMs: 2_000,
      }),
      fixture: books.fixture,
    };
  });
});

/**
 * The same contract for an entity booked in the database's second company (not the user's
 * current one) through the company mapping, the user seeing every company it may work in.
 */
describe('Tryton 6.0, an entity mapped to a second company', () => {
  const tryton = useTryton();
  const entityId = 'ent-eu';

  runErpContract('tryton (TRYTON_COMPANY_BY_ENTITY, second company)', async () => {
    await showAllCompanies(tryton.connection);
    const books = await readTrytonBooks(tryton.connection, { company: 'second' });
    const companyByEntity = { [entityId]: { id: books.companyId } };
    // docs/platform.md F42: with a public base the bill links there (the first contract has none).
    const deepLinkBase = 'https://tryton.example.com';
    return {
      erp: createErp({ kind: 'tryton', ...tryton.connection, companyByEntity, deepLinkBase }),
      deepLinkBase,
      unreachableErp: createErp({
        kind: 'tryton',
        ...tryton.connection,
        companyByEntity,
        url: 'http://127.0.0.1:1/',
        timeoutMs: 2_000,
      }),
      fixture: { ...books.fixture, entityId },
    };
  });
});
