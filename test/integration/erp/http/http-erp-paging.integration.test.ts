import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { GlAccount } from '../../../../src/erp/chart.ts';
import { ErpPagingError } from '../../../../src/erp/errors.ts';
import { HttpErp } from '../../../../src/erp/http/http-erp.ts';

const FAST = { maxAttempts: 2, baseMs: 5, capMs: 10 };

const account = (n: number): GlAccount => ({
  id: `gl-${n}`,
  name: `Account ${n}`,
  code: String(6000 + n),
  classification: 'EXPENSE',
  active: true,
  hidden: false,
});

/**
 * A scripted chart service: `page` answers GET /chart/gl-accounts for the cursor asked (null on
 * the first call); calls are counted, which is how these tests bound a read (never by time).
 */
async function chartService(
  page: (cursor: string | null, call: number) => { items: unknown[]; nextCursor: string | null },
): Promise<{ erp: HttpErp; calls: () => number }> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  let calls = 0;
  app.get<{ Querystring: { cursor?: string } }>('/chart/gl-accounts', async (request) =>
    page(request.query.cursor ?? null, ++calls),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  started.push(app);
  const { port } = app.server.address() as AddressInfo;
  return { erp: new HttpErp({ url: `http://127.0.0.1:${port}`, retry: FAST }), calls: () => calls };
}

const started: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of started) await app.close();
});

async function readAll(erp: HttpErp): Promise<{ ids: string[]; error: unknown }> {
  const ids: string[] = [];
  try {
    for await (const a of erp.glAccounts()) ids.push(a.id);
  } catch (error) {
    return { ids, error };
  }
  return { ids, error: null };
}

describe('HTTP ERP chart paging (src/page-guard.ts): a cursor that does not move ends the stream', () => {
  it('a chain of cursors is read in full, each account once', async () => {
    const { erp, calls } = await chartService((cursor) => {
      const from = cursor === null ? 0 : Number(cursor);
      return { items: [account(from), account(from + 1)], nextCursor: from < 8 ? String(from + 2) : null };
    });
    const { ids, error } = await readAll(erp);
    expect(error).toBeNull();
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `gl-${i}`));
    expect(calls()).toBe(5);
  });

  it('F43: a service that ignores the cursor (page 1 again, under a fresh cursor) ends at its second page with ERP_PAGING', async () => {
    const { erp, calls } = await chartService((_cursor, call) => ({
      items: [account(1), account(2)],
      nextCursor: `fresh-${call}`,
    }));
    const { ids, error } = await readAll(erp);
    expect(error).toBeInstanceOf(ErpPagingError);
    expect((error as ErpPagingError).info).toMatchObject({
      category: 'needs_integrator',
      code: 'ERP_PAGING',
    });
    expect((error as ErpPagingError).detail).toBe(
      'GET /chart/gl-accounts (GL accounts): page 2 repeats an earlier page: the cursor does not move',
    );
    expect(ids).toEqual(['gl-1', 'gl-2']);
    expect(calls()).toBe(2);
  });

  it('F43: a nextCursor already followed ends the stream without asking for it again', async () => {
    const { erp, calls } = await chartService((cursor) => ({
      items: [account(cursor === null ? 1 : 2)],
      nextCursor: 'same',
    }));
    const { ids, error } = await readAll(erp);
    expect((error as ErpPagingError).detail).toMatch(/the link onward from page 2 was already followed/);
    expect(ids).toEqual(['gl-1', 'gl-2']);
    expect(calls()).toBe(2);
  });

  it('F43: empty pages that point onward end the stream at the 100th in a row', async () => {
    const { erp, calls } = await chartService((_cursor, call) => ({
      items: call === 1 ? [account(1)] : [],
      nextCursor: `empty-${call}`,
    }));
    const { ids, error } = await readAll(erp);
    expect((error as ErpPagingError).detail).toMatch(/100 empty pages in a row still point onward/);
    expect(ids).toEqual(['gl-1']);
    expect(calls()).toBe(101);
  });
});
