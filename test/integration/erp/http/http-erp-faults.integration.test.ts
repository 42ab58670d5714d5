import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpErp } from '../../../../src/erp/http/http-erp.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import type { CardTransactionInput, ErpWrite, WriteResult } from '../../../../src/erp/types.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { startReferenceService } from './reference-service.ts';

const db = useTestDatabase({ migrate: false });
const FAST = { maxAttempts: 3, baseMs: 5, capMs: 10 };
const TOKEN = 'faults-token-0123456789';
const SECRET = 'faults-hmac-secret-0123456789';

function card(objectId: string): CardTransactionInput {
  return {
    kind: 'card_transaction',
    objectId,
    date: '2025-02-10',
    entityId: null,
    currency: { code: 'USD', exponent: 2 },
    totalMinor: 1250,
    memo: 'Taxi',
    counterpart: null,
    lines: [{ glAccountId: 'gl-6020', dimensions: {}, memo: 'Taxi', amountMinor: 1250 }],
  };
}

const success = (item: ErpWrite): WriteResult => ({
  ok: true,
  kind: item.kind,
  objectId: item.objectId,
  referenceId: `je-${item.objectId}`,
  replayed: false,
});

/** A scripted ERP service: `answer` decides each POST /entries reply; calls are counted. */
async function fakeService(
  answer: (call: number, items: ErpWrite[]) => { status: number; body?: unknown } | 'hang',
): Promise<{ url: string; calls: () => number; app: FastifyInstance }> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  let calls = 0;
  app.post<{ Body: { items: ErpWrite[] } }>('/entries', async (request, reply) => {
    calls++;
    const outcome = answer(calls, request.body.items);
    if (outcome === 'hang') return new Promise(() => {});
    return reply.code(outcome.status).send(outcome.body ?? {});
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls: () => calls, app };
}

const started: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of started) await app.close();
});

describe('HTTP ERP adapter against a refusing or faulty service', () => {
  let serviceUrl: string;
  beforeAll(async () => {
    const schema = db.newSchema('ledger');
    await seedLedger(db.sql, schema, { preset: 'small', seed: 3 });
    const service = await startReferenceService(db.sql, schema, { token: TOKEN, hmacSecret: SECRET });
    started.push(service.app);
    serviceUrl = service.url;
  });

  it('a wrong bearer token is refused (401) and every item fails needs_integrator naming the credentials', async () => {
    const erp = new HttpErp({
      url: serviceUrl,
      token: 'wrong-token-0123456789',
      hmacSecret: SECRET,
      retry: FAST,
    });
    const results = await erp.postMany([card('ht-auth-1'), card('ht-auth-2')]);
    for (const r of results) {
      expect(r).toMatchObject({
        ok: false,
        error: { category: 'needs_integrator', code: 'ERP_AUTH_REFUSED' },
      });
      if (!r.ok) expect(r.error.message).toMatch(/refused ledgersync’s credentials .*HTTP 401/);
      if (!r.ok) expect(r.error.message).not.toContain('wrong-token');
    }
    // Nothing was written: with the right credentials the same ids are first writes, not replays.
    const good = new HttpErp({ url: serviceUrl, token: TOKEN, hmacSecret: SECRET, retry: FAST });
    const again = await good.postMany([card('ht-auth-1'), card('ht-auth-2')]);
    expect(again.map((r) => r.ok && r.replayed)).toEqual([false, false]);
    await good.close();
  });

  it('a signature under the wrong secret, or none, is refused (401) for reads and writes', async () => {
    for (const hmacSecret of ['another-secret-0123456789', undefined]) {
      const erp = new HttpErp({ url: serviceUrl, token: TOKEN, hmacSecret, retry: FAST });
      const [result] = await erp.postMany([card('ht-hmac-1')]);
      expect(result).toMatchObject({ ok: false, error: { code: 'ERP_AUTH_REFUSED' } });
      const reading = (async () => {
        for await (const _ of erp.glAccounts()) break;
      })();
      await expect(reading).rejects.toMatchObject({ category: 'needs_integrator', code: 'ERP_AUTH_REFUSED' });
    }
  });

  it('retries a 503 with backoff, then takes the answer', async () => {
    const fake = await fakeService((call, items) =>
      call <= 2 ? { status: 503 } : { status: 200, body: { results: items.map(success) } },
    );
    started.push(fake.app);
    const erp = new HttpErp({ url: fake.url, retry: FAST });
    const results = await erp.postMany([card('ht-503')]);
    expect(results).toEqual([success(card('ht-503'))]);
    expect(fake.calls()).toBe(3);
  });

  it('a service that never answers yields transient results after the retries (writes never reject)', async () => {
    const fake = await fakeService(() => 'hang');
    started.push(fake.app);
    const erp = new HttpErp({
      url: fake.url,
      timeoutMs: 150,
      retry: { maxAttempts: 2, baseMs: 5, capMs: 10 },
    });
    const results = await erp.postMany([card('ht-slow-1'), card('ht-slow-2')]);
    expect(fake.calls()).toBe(2);
    for (const r of results) {
      expect(r).toMatchObject({ ok: false, error: { category: 'transient', code: 'ERP_UNAVAILABLE' } });
      if (!r.ok) expect(r.error.message).toMatch(/^Temporary problem: .*no response within 150 ms/);
    }
  });

  it('a 400 is not retried: the same request would fail the same way', async () => {
    const fake = await fakeService(() => ({ status: 400, body: { error: { code: 'BAD', message: 'no' } } }));
    started.push(fake.app);
    const [result] = await new HttpErp({ url: fake.url, retry: FAST }).postMany([card('ht-400')]);
    expect(result).toMatchObject({
      ok: false,
      error: { category: 'needs_integrator', code: 'ERP_REQUEST_REFUSED' },
    });
    expect(fake.calls()).toBe(1);
  });

  it('a malformed result fails its own item needs_integrator; the well-formed one stands', async () => {
    const fake = await fakeService((_call, items) => ({
      status: 200,
      body: { results: [success(items[0]!), { ok: true, kind: 'card_transaction' }] },
    }));
    started.push(fake.app);
    const results = await new HttpErp({ url: fake.url, retry: FAST }).postMany([
      card('ht-m1'),
      card('ht-m2'),
    ]);
    expect(results[0]).toEqual(success(card('ht-m1')));
    expect(results[1]).toMatchObject({
      ok: false,
      kind: 'card_transaction',
      objectId: 'ht-m2',
      error: { category: 'needs_integrator', code: 'ERP_BAD_ANSWER' },
    });
  });

  it('an answer with too few results, or not JSON, fails every item needs_integrator', async () => {
    const answers = [{ results: [] }, 'not json at all', { items: [] }];
    for (const body of answers) {
      const fake = await fakeService(() => ({ status: 200, body }));
      started.push(fake.app);
      const results = await new HttpErp({ url: fake.url, retry: FAST }).postMany([
        card('ht-x1'),
        card('ht-x2'),
      ]);
      expect(results.map((r) => [r.objectId, r.ok || r.error.code])).toEqual([
        ['ht-x1', 'ERP_BAD_ANSWER'],
        ['ht-x2', 'ERP_BAD_ANSWER'],
      ]);
    }
  });
});
