import type { RunningStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformError, UnexpectedResponseError } from '../../../src/platform/errors.ts';
import type { ItemResult } from '../../../src/platform/parse.ts';
import type { Transaction } from '../../../src/platform/schemas/objects.ts';
import { KIND_SPECS, syncPlatformFrom } from '../../../src/sync/objects/index.ts';
import { useTestRedis } from '../../support/redis.ts';
import { capturingLogger } from './support/capture-log.ts';
import { addClient, type Credentials, control, effects, startTestStub, testClient } from './support/stub.ts';

const redis = useTestRedis();
const captured = capturingLogger();
const TOTAL = 10_000;
let stub: RunningStub;
let credentials: Credentials;
let client: ReturnType<typeof testClient>;
let expectedIds: string[];

beforeAll(async () => {
  // Paging is what this file tests, not the rate limit: a budget large enough to never wait.
  stub = await startTestStub({ rateLimit: { max: 2_000, windowMs: 10_000 } });
  credentials = await addClient(stub);
  await control(stub, 'POST', '/__stub/seed', { seed: 11, transactions: TOTAL });
  client = testClient(stub, redis, credentials, captured.log, {
    limiter: { max: 2_000, windowMs: 10_000, egressId: 'pagination' },
  });
  expectedIds = Array.from({ length: TOTAL }, (_, i) => stub.state.world.idOf('transaction', i));
});

afterAll(async () => {
  await client?.close();
  await stub?.close();
});

function idsOf(results: ItemResult<Transaction>[]): string[] {
  return results.map((r) => (r.ok ? r.value.id : `failed:${r.id}`));
}

describe('pagination (docs/platform.md F4)', () => {
  it('F4: paging 10,000 objects returns each exactly once, in order, 100 a page', async () => {
    const before = (await effects(stub)).arrivals.length;
    const seen: ItemResult<Transaction>[] = [];
    for await (const item of client.objects.list(KIND_SPECS.transactions.list)) seen.push(item);
    expect(seen.every((r) => r.ok)).toBe(true);
    expect(idsOf(seen)).toEqual(expectedIds);
    const pages = (await effects(stub)).arrivals.slice(before).filter((a) => a.route === '/transactions');
    expect(pages).toHaveLength(TOTAL / 100);
  });

  it('F4: pages can be resumed from a saved page.next link', async () => {
    const pages = client.objects.list(KIND_SPECS.transactions.list).pages();
    const first = (await pages.next()).value!;
    await pages.return(undefined);
    expect(first.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/developer\/v1\/transactions\?/);
    const rest: ItemResult<Transaction>[] = [];
    for await (const page of client.objects
      .list(KIND_SPECS.transactions.list)
      .pages({ resumeFrom: first.next! }))
      rest.push(...page.items);
    expect(idsOf([...first.items, ...rest])).toEqual(expectedIds);
  });

  it('F43: a page.next that leads to another list ends the read with an error after the page in hand', async () => {
    await control(stub, 'PUT', '/__stub/faults', { page_links: { '/transactions': 'other_list' } });
    try {
      const pages = client.objects.list(KIND_SPECS.transactions.list).pages();
      const first = (await pages.next()).value!;
      expect(first.items).toHaveLength(100);
      const before = (await effects(stub)).arrivals.length;
      const error = await pages.next().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(String((error as Error).message)).toMatch(
        /page\.next leads away from \/transactions \(to .*\/transfers\)/,
      );
      // The other list is never read as if it were this one.
      expect((await effects(stub)).arrivals.slice(before).filter((a) => a.route === '/transfers')).toEqual(
        [],
      );
    } finally {
      await control(stub, 'PUT', '/__stub/faults', {});
    }
  });

  it('F43: a next page that answers 404 ends the read with that error; the first page was handed on', async () => {
    const pages = client.objects.list(KIND_SPECS.transactions.list).pages();
    const first = (await pages.next()).value!;
    expect(first.items.every((i: ItemResult<Transaction>) => i.ok)).toBe(true);
    await control(stub, 'PUT', '/__stub/faults', { missing_routes: ['GET /transactions'] });
    try {
      const error = await pages.next().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlatformError);
      expect((error as PlatformError).status).toBe(404);
    } finally {
      await control(stub, 'PUT', '/__stub/faults', {});
    }
  });

  it('F43: a page.next that is the URL just asked ends the read with an error after that one request', async () => {
    await control(stub, 'PUT', '/__stub/faults', { page_links: { '/transactions': 'self' } });
    try {
      const before = (await effects(stub)).arrivals.length;
      const seen: ItemResult<Transaction>[] = [];
      const error = await (async () => {
        for await (const page of client.objects.list(KIND_SPECS.transactions.list).pages())
          seen.push(...page.items);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(String((error as Error).message)).toMatch(
        /GET \/transactions: the link onward from page 1 was already followed: the cursor does not move; .*\(F43\)/,
      );
      // The page in hand was handed on, once; the link to itself was never followed.
      expect(idsOf(seen)).toEqual(expectedIds.slice(0, 100));
      const reads = (await effects(stub)).arrivals.slice(before).filter((a) => a.route === '/transactions');
      expect(reads).toHaveLength(1);
    } finally {
      await control(stub, 'PUT', '/__stub/faults', {});
    }
  });

  it('F43: empty pages that point onward without end end the read after 100 of them in a row', async () => {
    await control(stub, 'PUT', '/__stub/faults', { page_links: { '/entities': 'empty_onward' } });
    try {
      const before = (await effects(stub)).arrivals.length;
      const error = await client.entities
        .list()
        .collect()
        .catch((e: unknown) => e);
      expect(String((error as Error).message)).toMatch(
        /GET \/entities: 100 empty pages in a row still point onward \(page 101\); .*\(F43\)/,
      );
      const reads = (await effects(stub)).arrivals.slice(before).filter((a) => a.route === '/entities');
      expect(reads).toHaveLength(101);
    } finally {
      await control(stub, 'PUT', '/__stub/faults', {});
    }
  });

  it('F4: a probe of the sync port asks for the fewest items a page may hold (2), not 100', async () => {
    const platform = syncPlatformFrom(client);
    const before = (await effects(stub)).arrivals.length;
    const pages = platform.readyPages('transactions', { range: { from: null, to: null }, probe: true });
    const iterator = pages[Symbol.asyncIterator]();
    const first = await iterator.next();
    await iterator.return?.();
    expect(first.done).toBe(false);
    expect(first.value!.items).toHaveLength(2);
    expect(first.value!.more).toBe(true);
    const full = await platform.readyPages('transactions')[Symbol.asyncIterator]().next();
    expect(full.value!.items).toHaveLength(100);
    expect(
      (await effects(stub)).arrivals.slice(before).filter((a) => a.route === '/transactions'),
    ).toHaveLength(2);
  });

  it('nothing secret reaches the log', () => {
    expect(captured.text()).not.toContain(credentials.clientSecret);
    expect(captured.text()).not.toMatch(/svc_business_tok_[A-Za-z0-9]/);
  });
});
