import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveConnection } from '../../../src/app/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { KIND_SPECS } from '../../../src/sync/objects/index.ts';
import { useTestDatabase } from '../../support/db.ts';
import { useTestRedis } from '../../support/redis.ts';
import {
  type AnswerServer,
  answerServerClient,
  type ScriptedAnswer,
  type SeenRequest,
  startAnswerServer,
  tokenAnswer,
} from './support/answer-server.ts';

/**
 * Answers the published schemas allow and the stub does not give (docs/platform.md F37, F38,
 * F40), against the real client over HTTP.
 */
const redis = useTestRedis();
const db = useTestDatabase();
let server: AnswerServer;
const clients: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = await startAnswerServer(() => ({ status: 404, body: {} }));
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});
afterAll(async () => {
  await server.close();
});

function client() {
  const c = answerServerClient(server, redis, silentLogger);
  clients.push(c);
  return c;
}

const EMPTY_PAGE = { body: { data: [], page: { next: null } } };

/** Token answers numbered from 1 with this expires_in ('absent': the key is left out). */
function answering(
  expiresIn: number | 'absent',
  other: (r: SeenRequest) => ScriptedAnswer = () => EMPTY_PAGE,
) {
  let issued = 0;
  return (request: SeenRequest): ScriptedAnswer =>
    request.path === '/token' ? tokenAnswer(++issued, expiresIn) : other(request);
}

const callsSince = (from: number) => server.seen.slice(from);

describe('token answers (docs/platform.md F40)', () => {
  const lifetimes: Array<[string, number | 'absent']> = [
    ['expires_in 0', 0],
    ['expires_in -60', -60],
    ['no expires_in', 'absent'],
  ];
  for (const [label, expiresIn] of lifetimes) {
    it(`F40: a token answer with ${label} is used once and renewed before the next call`, async () => {
      server.answer = answering(expiresIn);
      const from = server.seen.length;
      const c = client();
      await c.entities.list().collect();
      await c.entities.list().collect();
      const seen = callsSince(from);
      expect(seen.map((r) => r.path)).toEqual(['/token', '/entities', '/token', '/entities']);
      // Each call carries the token issued just before it.
      expect(seen[1]?.authorization).toBe('Bearer svc_business_tok_answer1');
      expect(seen[3]?.authorization).toBe('Bearer svc_business_tok_answer2');
    });
  }

  it('F40: without a lifetime, concurrent calls cost at most one token request each, never more', async () => {
    server.answer = answering(0);
    const from = server.seen.length;
    const c = client();
    await Promise.all(Array.from({ length: 12 }, () => c.entities.list().collect()));
    const seen = callsSince(from);
    const tokens = seen.filter((r) => r.path === '/token').length;
    expect(seen.filter((r) => r.path === '/entities')).toHaveLength(12);
    expect(tokens).toBeGreaterThanOrEqual(1);
    expect(tokens).toBeLessThanOrEqual(12);
    expect(c.stats().tokensIssued).toBe(tokens);
  });

  it('F40: a token refused as expired is renewed once, and the renewed token serves the repeat', async () => {
    let refused = false;
    server.answer = answering(0, (request) => {
      if (!refused) {
        refused = true;
        const error = { error_code: 'DEVELOPER_7028', message: 'token expired' };
        return { status: 401, body: { error_v2: error } };
      }
      return request.path === '/entities' ? EMPTY_PAGE : { status: 404, body: {} };
    });
    const from = server.seen.length;
    await client().entities.list().collect();
    expect(callsSince(from).map((r) => r.path)).toEqual(['/token', '/entities', '/token', '/entities']);
  });

  it('F40: a token answer with a lifetime is kept for the calls after it (F1 unchanged)', async () => {
    server.answer = answering(3600);
    const from = server.seen.length;
    const c = client();
    await c.entities.list().collect();
    await c.entities.list().collect();
    expect(callsSince(from).map((r) => r.path)).toEqual(['/token', '/entities', '/entities']);
  });
});

describe('nullable fields (docs/platform.md F37, F38)', () => {
  const connection = (remoteProviderName: string | null) => ({
    id: 'conn-f37',
    connection_type: 'API',
    created_at: '2026-01-05T10:00:00Z',
    is_active: true,
    remote_provider_name: remoteProviderName,
    settings: null,
  });

  it('F37: a connection with remote_provider_name null resolves, and a known name is kept', async () => {
    let name: string | null = 'Acme ERP';
    server.answer = answering(3600, (request) =>
      request.path === '/accounting/connection/conn-f37'
        ? { body: connection(name) }
        : { status: 404, body: {} },
    );
    const c = client();
    const read = await c.connection.get('conn-f37');
    expect(read?.remote_provider_name).toBe('Acme ERP');
    expect(await resolveConnection(c, db.sql, 'conn-f37')).toBe('conn-f37');

    name = null;
    expect((await c.connection.get('conn-f37'))?.remote_provider_name).toBeNull();
    expect(await resolveConnection(c, db.sql, 'conn-f37')).toBe('conn-f37');
    const [row] = await db.sql<{ remote_provider_name: string }[]>`
      select remote_provider_name from connections where id = 'conn-f37'`;
    expect(row?.remote_provider_name).toBe('Acme ERP');
  });

  it('F37: a connection first seen with remote_provider_name null is recorded without a name', async () => {
    server.answer = answering(3600, (request) =>
      request.path === '/accounting/connection/conn-f37-new'
        ? { body: { ...connection(null), id: 'conn-f37-new' } }
        : { status: 404, body: {} },
    );
    expect(await resolveConnection(client(), db.sql, 'conn-f37-new')).toBe('conn-f37-new');
    const [row] = await db.sql<{ remote_provider_name: string }[]>`
      select remote_provider_name from connections where id = 'conn-f37-new'`;
    expect(row?.remote_provider_name).toBe('');
  });

  it('F37: a connection listed with remote_provider_name null parses', async () => {
    server.answer = answering(3600, (request) =>
      request.path === '/accounting/all-connections'
        ? { body: { connections: [connection(null)] } }
        : { status: 404, body: {} },
    );
    const [item] = await client().connection.all();
    expect(item).toMatchObject({ ok: true, value: { id: 'conn-f37', remote_provider_name: null } });
  });

  const pageOf = (item: unknown) => ({ body: { data: [item], page: { next: null } } });

  it('F37: a reimbursement with employee_id, memo, merchant and trip_id null parses', async () => {
    server.answer = answering(3600, () =>
      pageOf({
        id: 'rmb-1',
        amount: { amount: 1250, currency_code: 'USD' },
        currency: 'USD',
        employee_id: null,
        memo: null,
        merchant: null,
        trip_id: null,
      }),
    );
    const { values, failures } = await client().objects.list(KIND_SPECS.reimbursements.list).collect();
    expect(failures).toEqual([]);
    expect(values[0]).toMatchObject({ id: 'rmb-1', memo: null });
  });

  it('F37: a transaction with trip_id, trip_name and merchant_location null parses', async () => {
    server.answer = answering(3600, () =>
      pageOf({
        id: 'txn-1',
        amount: 12.5,
        currency_code: 'USD',
        trip_id: null,
        trip_name: null,
        merchant_location: null,
      }),
    );
    const { values, failures } = await client().objects.list(KIND_SPECS.transactions.list).collect();
    expect(failures).toEqual([]);
    expect(values.map((v) => v.id)).toEqual(['txn-1']);
  });

  it('F37, F38: a bill with deep_link_url, remote_id and paid_at null, and a payment id null or absent, parses', async () => {
    const bill = (id: string, payment: Record<string, unknown>) => ({
      id,
      amount: { amount: 5000, currency_code: 'USD' },
      status: 'PAID',
      deep_link_url: null,
      remote_id: null,
      paid_at: null,
      payment: { amount: { amount: 5000, currency_code: 'USD' }, payment_date: '2026-01-05', ...payment },
    });
    server.answer = answering(3600, () => ({
      body: { data: [bill('bill-1', { id: null }), bill('bill-2', {})], page: { next: null } },
    }));
    const { values, failures } = await client().objects.list(KIND_SPECS.bills.list).collect();
    expect(failures).toEqual([]);
    expect(values.map((v) => [v.id, v.paid_at, v.payment?.payment_date])).toEqual([
      ['bill-1', null, '2026-01-05'],
      ['bill-2', null, '2026-01-05'],
    ]);
  });
});
