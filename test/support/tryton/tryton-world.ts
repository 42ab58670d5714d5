import { z } from 'zod';
import type { TrytonConnection } from '../../../src/erp/index.ts';
import { createErp } from '../../../src/erp/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { type TestDatabase, useTestDatabase } from '../db.ts';
import { type PlatformSide, usePlatformSide } from '../platform-side.ts';
import { type TestRedis, useTestRedis } from '../redis.ts';
import { readTrytonBooks, type TrytonBooks } from './fixture.ts';
import { useTryton } from './use-tryton.ts';

/**
 * The whole system with Tryton as the ERP, for one test file: the worker's state in a schema of
 * the test PostgreSQL, a Tryton database with the test books, the platform stub over real HTTP,
 * the real platform client and an active connection. `seed` codes the stub's objects with the
 * Tryton ids the adapter reports (accounts, Department options, suppliers, taxes), and opens the
 * platform's USD entities in the Tryton company (an identifier on the company's party).
 */

export interface TrytonSyncWorld extends PlatformSide {
  db: TestDatabase;
  redis: TestRedis;
  readonly tryton: TrytonConnection;
  readonly books: TrytonBooks;
}

const CompanyParty = z.object({ party: z.number().int() });

export function useTrytonSyncWorld(): TrytonSyncWorld {
  const db = useTestDatabase();
  const redis = useTestRedis();
  const tryton = useTryton();
  let books: TrytonBooks | undefined;

  return usePlatformSide(
    {
      db,
      redis,
      get tryton() {
        return tryton.connection;
      },
      get books() {
        return books!;
      },
    },
    {
      redis,
      provider: 'Tryton',
      prepare: async () => {
        books = await readTrytonBooks(tryton.connection);
      },
      openErp: () => createErp({ kind: 'tryton', ...tryton.connection }, { log: silentLogger }),
      chart: async () => {
        const b = books!;
        return {
          gl_accounts: ['6020', '6040', '6060', '6080'].map(b.accountId),
          vendors: b.supplierIds,
          tax_codes: Object.values(b.taxIds),
          fields: [{ id: b.department.id, options: b.department.options }],
        };
      },
      openEntities: async (entities) => {
        const b = books!;
        const usd = entities.filter((e) => e.currency === 'USD').map((e) => e.id);
        const [company] = await b.models.searchRead('company.company', [], ['party'], CompanyParty);
        await b.models.write('party.party', [company!.party], {
          identifiers: [['create', usd.map((code) => ({ code }))]],
        });
      },
      setupTimeoutMs: 900_000,
    },
  );
}
