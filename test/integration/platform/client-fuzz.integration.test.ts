import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import type { PlatformClient } from '../../../src/platform/client.ts';
import { PlatformError, UnexpectedResponseError } from '../../../src/platform/errors.ts';
import type { ItemResult } from '../../../src/platform/parse.ts';
import { KIND_SPECS } from '../../../src/sync/objects/index.ts';
import { useTestRedis } from '../../support/redis.ts';
import { AnswerFuzz } from './support/answer-fuzz.ts';
import {
  type AnswerServer,
  answerServerClient,
  type ScriptedAnswer,
  type SeenRequest,
  startAnswerServer,
} from './support/answer-server.ts';

/**
 * The client fed random answers the published schemas allow (docs/platform.md F22, F36–F40), with
 * now and then an item it cannot use or a whole answer of the wrong shape. Whatever it is fed, a
 * call ends (no hang), a whole-answer failure is a PlatformError, and every item served comes back
 * as a value or as an `{ok: false, id, error}` failure: none is dropped, none valid is refused.
 * The active connection is read from the list of all connections, or from the single read where
 * the list is missing, whose `{}` means none (F39).
 */
const redis = useTestRedis();
const ITERATIONS = 200;
/** A call that takes longer than this has hung: the test fails, not the suite. */
const CALL_TIMEOUT_MS = 10_000;
const ITEM_CORRUPTION = 0.08;
const BODY_CORRUPTION = 0.05;

let server: AnswerServer;
let shared: Redis;
let client: PlatformClient;
let fuzz: AnswerFuzz;
/** The answer to POST /token for every case but the token case: any lifetime the schema allows. */
let tokenAnswers = () => ({ body: fuzz.token() }) as ScriptedAnswer;

beforeAll(async () => {
  server = await startAnswerServer(() => ({ status: 404, body: {} }));
  shared = redis.connect();
  client = fuzzClient();
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

function fuzzClient(): PlatformClient {
  return answerServerClient(server, redis, silentLogger, {
    redis: shared,
    // Thousands of calls in seconds: the budget is not what is under test here.
    limiter: { egressId: `fuzz-${Math.random()}`, max: 1_000_000, windowMs: 1_000, windowPadMs: 0 },
    retry: { maxAttempts: 1, baseMs: 1, capMs: 1 },
  });
}

/** Serves `answer` for every request but the token call. */
function serve(answer: (request: SeenRequest) => ScriptedAnswer): void {
  server.answer = (request) => (request.path === '/token' ? tokenAnswers() : answer(request));
}

async function within<T>(what: string, call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${CALL_TIMEOUT_MS} ms (hung)`)),
      CALL_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([call, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a call returned: its item results, or the error it threw. */
type Outcome = { items: ItemResult<unknown>[] } | { error: unknown };

async function outcomeOf(what: string, call: () => Promise<ItemResult<unknown>[]>): Promise<Outcome> {
  try {
    return { items: await within(what, call()) };
  } catch (error) {
    if (error instanceof Error && /hung/.test(error.message)) throw error;
    return { error };
  }
}

/** Served items, each marked usable or not, and the item field a corruption spoils. */
interface Served {
  items: unknown[];
  usable: boolean[];
}

function serveItems(make: () => Record<string, unknown>, needed: string, count: number): Served {
  const items: unknown[] = [];
  const usable: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const item = make();
    const corrupt = fuzz.chance(ITEM_CORRUPTION);
    items.push(corrupt ? fuzz.corruptItem(item, needed) : item);
    usable.push(!corrupt);
  }
  return { items, usable };
}

/** Every item accounted for: usable ones parsed, the others failures with a reason and their id. */
function expectAccounted(what: string, served: Served, items: ItemResult<unknown>[]): void {
  expect(items, `${what}: count in == ok + failed`).toHaveLength(served.items.length);
  items.forEach((result, i) => {
    const item = served.items[i];
    if (served.usable[i]) {
      expect(result, `${what}: item ${i} is valid and must parse: ${JSON.stringify(result)}`).toMatchObject({
        ok: true,
      });
      return;
    }
    expect(result.ok, `${what}: item ${i} is unusable and must be a failure`).toBe(false);
    if (result.ok) return;
    expect(result.error.length, `${what}: a failure says why`).toBeGreaterThan(0);
    const id =
      item && typeof item === 'object' && !Array.isArray(item) ? (item as { id?: unknown }).id : null;
    if (typeof id === 'string' && id.length > 0) expect(result.id).toBe(id);
  });
}

function expectWholeAnswerFailure(what: string, outcome: Outcome): void {
  expect('error' in outcome, `${what}: an answer of the wrong shape is refused`).toBe(true);
  if ('error' in outcome)
    expect(outcome.error, `${what}: ${String(outcome.error)}`).toBeInstanceOf(PlatformError);
}

function expectItems(what: string, outcome: Outcome): ItemResult<unknown>[] {
  if ('error' in outcome) throw new Error(`${what}: a valid answer was refused: ${String(outcome.error)}`);
  return outcome.items;
}

// ---------------------------------------------------------------- pages (F4, F16, F22–F27)

interface PageCase {
  name: string;
  path: string;
  make: () => Record<string, unknown>;
  read: (c: PlatformClient) => AsyncIterable<ItemResult<unknown>>;
}

const pageCases: PageCase[] = [
  {
    name: 'transactions',
    path: '/transactions',
    make: () => fuzz.transaction(),
    read: (c) => c.objects.ready(KIND_SPECS.transactions.list),
  },
  {
    name: 'reimbursements',
    path: '/reimbursements',
    make: () => fuzz.reimbursement(),
    read: (c) => c.objects.ready(KIND_SPECS.reimbursements.list),
  },
  {
    name: 'transfers',
    path: '/transfers',
    make: () => fuzz.transfer(),
    read: (c) => c.objects.ready(KIND_SPECS.transfers.list),
  },
  {
    name: 'cashbacks',
    path: '/cashbacks',
    make: () => fuzz.transfer(),
    read: (c) => c.objects.ready(KIND_SPECS.cashbacks.list),
  },
  {
    name: 'bills',
    path: '/bills',
    make: () => fuzz.bill(),
    read: (c) => c.objects.ready(KIND_SPECS.bills.list),
  },
  { name: 'entities', path: '/entities', make: () => fuzz.entity(), read: (c) => c.entities.list() },
];

async function collected(listing: AsyncIterable<ItemResult<unknown>>): Promise<ItemResult<unknown>[]> {
  const items: ItemResult<unknown>[] = [];
  for await (const item of listing) items.push(item);
  return items;
}

describe('the client fed random published answers (docs/platform.md F22, F36–F40)', () => {
  for (const [index, shape] of pageCases.entries()) {
    it(`F22, F36, F37: ${shape.name} pages: every item is a value or a failure with a reason`, async () => {
      fuzz = new AnswerFuzz(1000 + index);
      for (let n = 0; n < ITERATIONS; n++) {
        const what = `${shape.name} #${n}`;
        if (fuzz.chance(BODY_CORRUPTION)) {
          const body = fuzz.corruptBody();
          serve(() => body);
          expectWholeAnswerFailure(what, await outcomeOf(what, () => collected(shape.read(client))));
          continue;
        }
        // One or two pages; page.next given as a path, or the list ends by null, '' or no link.
        const first = serveItems(shape.make, 'id', fuzz.int(0, 12));
        const second = fuzz.chance(0.25) ? serveItems(shape.make, 'id', fuzz.int(0, 12)) : null;
        const next = `${shape.path}?cursor=${n}`;
        const end = fuzz.pick<Record<string, unknown>>([
          { page: { next: null } },
          { page: { next: '' } },
          {},
        ]);
        serve((request) => {
          if (request.path !== shape.path) return { status: 404, body: {} };
          if (request.query.get('cursor') === String(n) && second)
            return { body: { data: second.items, ...end } };
          return { body: { data: first.items, ...(second ? { page: { next } } : end) } };
        });
        const items = expectItems(what, await outcomeOf(what, () => collected(shape.read(client))));
        const served = second
          ? { items: [...first.items, ...second.items], usable: [...first.usable, ...second.usable] }
          : first;
        expectAccounted(what, served, items);
      }
    });
  }

  // -------------------------------------------------------------- upload answers (F8–F13, F41)

  const uploadCases: Array<{
    name: string;
    key: string;
    make: () => Record<string, unknown>;
    upload: (c: PlatformClient) => Promise<ItemResult<unknown>[]>;
  }> = [
    {
      name: 'GL accounts',
      key: 'gl_accounts',
      make: () => fuzz.glAccount(),
      upload: async (c) =>
        (
          await c.chart.uploadGlAccounts({
            gl_accounts: [{ id: 'gl-1', name: 'Travel', classification: 'EXPENSE' }],
          })
        ).items,
    },
    {
      name: 'field options',
      key: 'options',
      make: () => fuzz.fieldOption(),
      upload: async (c) =>
        (await c.chart.uploadFieldOptions({ field_id: 'field-1', options: [{ id: 'opt-1', value: 'A' }] }))
          .items,
    },
    {
      name: 'accounting vendors',
      key: 'vendors',
      make: () => fuzz.accountingVendor(),
      upload: async (c) => (await c.chart.uploadVendors({ vendors: [{ id: 'v-1', name: 'Acme' }] })).items,
    },
    {
      name: 'tax rates',
      key: 'tax_rates',
      make: () => fuzz.taxRate(),
      upload: async (c) =>
        (
          await c.chart.uploadTaxRates({
            tax_rates: [{ id: 'tr-1', name: 'VAT', rate: '0.2', accounting_gl_account_id: 'gl-1' }],
          })
        ).items,
    },
    {
      name: 'tax code options',
      key: 'options',
      make: () => fuzz.taxCodeOption(),
      upload: async (c) =>
        (
          await c.chart.uploadTaxCodeOptions({
            options: [{ id: 'tc-1', name: 'Standard', tax_rate_ids: ['tr-1'] }],
          })
        ).items,
    },
  ];

  for (const [index, shape] of uploadCases.entries()) {
    it(`F22, F41: ${shape.name} upload answers: every item is a value or a failure with a reason`, async () => {
      fuzz = new AnswerFuzz(2000 + index);
      for (let n = 0; n < ITERATIONS; n++) {
        const what = `${shape.name} upload #${n}`;
        if (fuzz.chance(BODY_CORRUPTION)) {
          const body = fuzz.corruptBody();
          serve(() => body);
          const outcome = await outcomeOf(what, () => shape.upload(client));
          // F41: a JSON object without the item list is a whole answer, confirming no item.
          const object = typeof body.body === 'object' && body.body !== null && !Array.isArray(body.body);
          if (object) expect(expectItems(what, outcome), what).toEqual([]);
          else expectWholeAnswerFailure(what, outcome);
          continue;
        }
        const served = serveItems(shape.make, 'svc_id', fuzz.chance(0.3) ? 0 : fuzz.int(1, 15));
        // F41: both published copies make the item list optional (`{uploaded: [ids]}`, `{}`).
        const body = fuzz.object({
          accounting_connection_id: ['optional', () => fuzz.id()],
          [shape.key]: ['optional-nullable', () => served.items],
          uploaded: ['optional', () => served.items.map(() => fuzz.id())],
        });
        serve(() => ({ status: fuzz.pick([200, 201]), body }));
        const items = expectItems(what, await outcomeOf(what, () => shape.upload(client)));
        if (Array.isArray(body[shape.key])) expectAccounted(what, served, items);
        else expect(items, `${what}: no item list is no item`).toEqual([]);
      }
    });
  }

  // -------------------------------------------------------------- the active connection (F39)

  it('F39: the active connection: found in the list or the single read, {} is none, never a crash', async () => {
    fuzz = new AnswerFuzz(4000);
    for (let n = 0; n < ITERATIONS; n++) {
      const what = `active connection #${n}`;
      const listMissing = fuzz.chance(0.3);
      const served = Array.from({ length: fuzz.int(0, 4) }, () => fuzz.connection());
      const single = fuzz.chance(0.4) ? {} : fuzz.connection();
      serve((request) => {
        if (request.path === '/accounting/all-connections')
          return listMissing ? { status: 404, body: {} } : { body: { connections: served } };
        return { body: single };
      });
      let found: { id: string } | null;
      try {
        found = await within(what, client.connection.getActive());
      } catch (error) {
        // Only a single read of the wrong shape may fail the call, and then as a PlatformError.
        expect(error, what).toBeInstanceOf(PlatformError);
        expect(listMissing, what).toBe(true);
        continue;
      }
      if (listMissing) {
        const expected = Object.keys(single).length === 0 ? null : (single as { id: string }).id;
        expect(found?.id ?? null, what).toBe(expected);
      } else {
        const active = served.filter((c) => c.is_active === true);
        const api = active.find((c) => c.connection_type === 'API') ?? active[0];
        expect(found?.id ?? null, what).toBe((api?.id as string | undefined) ?? null);
      }
    }
  });

  // -------------------------------------------------------------- sync answers (F14, F33)

  it('F33: sync answers: never refused once applied; every result is a value or a failure', async () => {
    fuzz = new AnswerFuzz(3000);
    for (let n = 0; n < ITERATIONS; n++) {
      const what = `sync answer #${n}`;
      const corruptWhole = fuzz.chance(BODY_CORRUPTION);
      const served = serveItems(() => fuzz.syncResult(), 'status', fuzz.int(0, 10));
      const body = corruptWhole
        ? fuzz.corruptBody()
        : {
            body: fuzz.object({
              sync_id: ['required', () => fuzz.id()],
              sync_request_id: ['optional-nullable', () => fuzz.id()],
              results: ['optional', () => served.items],
            }),
          };
      serve(() => ({ status: 201, ...body }));
      const outcome = await outcomeOf(what, async () => {
        const result = await client.syncs.postResults({
          idempotency_key: `fuzz-sync-${n}-${Math.random()}`,
          sync_type: 'TRANSACTION_SYNC',
          successful_syncs: [{ id: 'txn-1', reference_id: 'JE-1' }],
        });
        return result.answer?.results ?? [];
      });
      // A 2xx to a sync post means it was applied (F14, F33): only a non-JSON body may be refused.
      if ('error' in outcome) {
        expect(outcome.error, `${what}: ${String(outcome.error)}`).toBeInstanceOf(UnexpectedResponseError);
        expect(corruptWhole && 'raw' in body, `${what}: refused a JSON answer`).toBe(true);
        continue;
      }
      const withResults = !corruptWhole && Array.isArray((body.body as { results?: unknown }).results);
      if (withResults) expectAccounted(what, served, outcome.items);
      else expect(outcome.items, `${what}: no results read as none`).toEqual([]);
    }
  });

  // -------------------------------------------------------------- token answers (F1, F40)

  it('F40: token answers: any lifetime is used, a broken answer is an UnexpectedResponseError', async () => {
    fuzz = new AnswerFuzz(4000);
    const clients: PlatformClient[] = [];
    try {
      for (let n = 0; n < ITERATIONS; n++) {
        const what = `token answer #${n}`;
        const token = fuzz.token();
        const corrupt = fuzz.chance(0.1);
        const answer: ScriptedAnswer = corrupt
          ? fuzz.chance(0.5)
            ? fuzz.corruptBody()
            : { body: fuzz.corruptItem(token, 'access_token') }
          : { body: token };
        tokenAnswers = () => answer;
        serve(() => ({ body: { data: [], page: { next: null } } }));
        const fresh = fuzzClient();
        clients.push(fresh);
        const from = server.seen.length;
        const outcome = await outcomeOf(what, async () => {
          await fresh.entities.list().collect();
          await fresh.entities.list().collect();
          return [];
        });
        const seen = server.seen.slice(from);
        const tokenCalls = seen.filter((r) => r.path === '/token').length;
        if (corrupt) {
          expectWholeAnswerFailure(what, outcome);
          expect((outcome as { error: unknown }).error).toBeInstanceOf(UnexpectedResponseError);
          expect(tokenCalls, `${what}: one token request, then stop`).toBe(1);
          continue;
        }
        expectItems(what, outcome);
        // F40: at most one token request per call, whatever the lifetime.
        const calls = seen.filter((r) => r.path === '/entities');
        expect(calls).toHaveLength(2);
        expect(tokenCalls, `${what}: token requests`).toBeGreaterThanOrEqual(1);
        expect(tokenCalls, `${what}: token requests`).toBeLessThanOrEqual(calls.length);
        for (const call of calls) expect(call.authorization).toBe(`Bearer ${token.access_token}`);
      }
    } finally {
      tokenAnswers = () => ({ body: fuzz.token() });
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});
