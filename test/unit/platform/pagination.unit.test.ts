import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlatformRequest, PlatformResponse } from '../../../src/platform/http-transport.ts';
import { Listing } from '../../../src/platform/pagination.ts';

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
