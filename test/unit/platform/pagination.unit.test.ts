import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlatformRequest, PlatformResponse } from '../../../src/platform/http-transport.ts';
import { dateSlices, Listing, readSlices } from '../../../src/platform/pagination.ts';

const Item = z.object({ id: z.string() });

/** A fake list endpoint: `total` items, next links as full URLs with start = last id (F4). */
function fakeList(total: number) {
  const requests: PlatformRequest[] = [];
  const send = async (request: PlatformRequest): Promise<PlatformResponse> => {
    requests.push(request);
    const url = new URL(request.path, 'http://platform.test/developer/v1/');
    const size = Number(request.query?.page_size ?? url.searchParams.get('page_size'));
    const start = Number(url.searchParams.get('start') ?? 0);
    const data = Array.from({ length: Math.min(size, total - start) }, (_, i) => ({
      id: String(start + i + 1),
    }));
    const last = start + data.length;
    const next =
      last < total ? `http://platform.test/developer/v1/things?page_size=${size}&start=${last}` : null;
    return { status: 200, body: { data, page: { next } }, traceId: null, attempts: 1 };
  };
  return { send, requests };
}

describe('Listing (docs/platform.md F4)', () => {
  it('F4: asks for 100 a page, follows page.next as given, yields each item once in order', async () => {
    const list = fakeList(250);
    const listing = new Listing({
      send: list.send,
      path: '/things',
      query: { sync_status: 'SYNC_READY' },
      item: Item,
      what: 'thing',
    });
    const ids: string[] = [];
    for await (const item of listing) if (item.ok) ids.push(item.value.id);
    expect(ids).toEqual(Array.from({ length: 250 }, (_, i) => String(i + 1)));
    expect(list.requests[0]!.query).toEqual({ page_size: 100, sync_status: 'SYNC_READY' });
    expect(list.requests.slice(1).map((r) => r.path)).toEqual([
      'http://platform.test/developer/v1/things?page_size=100&start=100',
      'http://platform.test/developer/v1/things?page_size=100&start=200',
    ]);
  });

  it('resumes from a saved page.next link', async () => {
    const list = fakeList(250);
    const listing = new Listing({ send: list.send, path: '/things', query: {}, item: Item, what: 'thing' });
    const pages = [];
    for await (const page of listing.pages({
      resumeFrom: 'http://platform.test/developer/v1/things?page_size=100&start=200',
    })) {
      pages.push(page);
    }
    expect(pages).toHaveLength(1);
    expect(pages[0]!.items).toHaveLength(50);
    expect(pages[0]!.next).toBeNull();
  });

  it('collect() splits values from per-item failures', async () => {
    const send = async (): Promise<PlatformResponse> => ({
      status: 200,
      body: { data: [{ id: 'a' }, { id: 5 }], page: { next: null } },
      traceId: null,
      attempts: 1,
    });
    const listing = new Listing({ send, path: '/things', query: {}, item: Item, what: 'thing' });
    const { values, failures } = await listing.collect();
    expect(values).toEqual([{ id: 'a' }]);
    expect(failures).toEqual([{ id: '5', error: expect.stringContaining('thing 5 did not parse') }]);
  });
});

describe('readSlices', () => {
  async function* slow(prefix: string, count: number, delayMs: number) {
    for (let i = 0; i < count; i++) {
      await new Promise((r) => setTimeout(r, delayMs));
      yield `${prefix}${i}`;
    }
  }

  it('reads every slice once, in order within a slice, at most `concurrency` at a time', async () => {
    let running = 0;
    let peak = 0;
    async function* tracked(slice: { name: string; n: number }) {
      running++;
      peak = Math.max(peak, running);
      try {
        yield* slow(slice.name, slice.n, 2);
      } finally {
        running--;
      }
    }
    const slices = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, n: 4 }));
    const seen: string[] = [];
    for await (const item of readSlices(tracked, slices, 2)) seen.push(item);
    expect(seen.sort()).toEqual(slices.flatMap((s) => [0, 1, 2, 3].map((i) => `${s.name}${i}`)).sort());
    for (const s of slices) {
      const mine = seen.filter((x) => x.startsWith(s.name));
      expect(mine).toEqual([...mine].sort());
    }
    expect(peak).toBe(2);
  });

  it('closes the open slices when the reader stops early', async () => {
    const closed: string[] = [];
    async function* closing(name: string) {
      try {
        yield* slow(name, 100, 1);
      } finally {
        closed.push(name);
      }
    }
    let n = 0;
    for await (const _ of readSlices(closing, ['x', 'y', 'z'], 3)) if (++n === 5) break;
    expect(closed.sort()).toEqual(['x', 'y', 'z']);
  });

  it('passes on the first error', async () => {
    async function* failing(name: string) {
      yield `${name}0`;
      if (name === 'bad') throw new Error('page failed');
      yield* slow(name, 3, 5);
    }
    const run = async () => {
      for await (const _ of readSlices(failing, ['ok', 'bad'], 2));
    };
    await expect(run()).rejects.toThrow('page failed');
  });
});

describe('dateSlices', () => {
  it('splits a range into adjacent, disjoint inclusive ranges', () => {
    const slices = dateSlices(new Date('2025-01-01T00:00:00Z'), new Date('2025-01-05T00:00:00Z'), 4);
    expect(slices).toEqual([
      { from_date: '2025-01-01T00:00:00.000Z', to_date: '2025-01-01T23:59:59.999Z' },
      { from_date: '2025-01-02T00:00:00.000Z', to_date: '2025-01-02T23:59:59.999Z' },
      { from_date: '2025-01-03T00:00:00.000Z', to_date: '2025-01-03T23:59:59.999Z' },
      { from_date: '2025-01-04T00:00:00.000Z', to_date: '2025-01-04T23:59:59.999Z' },
    ]);
  });
});
