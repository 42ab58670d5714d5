import { describe } from 'vitest';
import { createErp } from '../../../src/erp/index.ts';
import { runErpContract } from '../../contract/erp-contract.ts';
import { readTrytonBooks } from '../../support/tryton/fixture.ts';
import { trytonAvailability, useTryton } from '../../support/tryton/use-tryton.ts';

const availability = await trytonAvailability();

describe.skipIf(!availability.ok)('Tryton 6.0 over JSON-RPC', () => {
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
