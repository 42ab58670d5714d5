import type { ObjectKindName, ReadItem, ReadPage, SyncPlatform } from '../objects/index.ts';

function itemId(item: ReadItem): string | null {
  if (item.ok) {
    const id = (item.value as { id?: unknown }).id;
    return typeof id === 'string' ? id : null;
  }
  return item.id;
}

/** The id of every item of a page, readable or not. */
export function pageObjectIds(page: ReadPage): string[] {
  return page.items.flatMap((item) => {
    const id = itemId(item);
    return id ? [id] : [];
  });
}

/** The pages cut down to the items whose id is in `keep`; pages left empty are dropped. */
export function keepItems(pages: readonly ReadPage[], keep: ReadonlySet<string>): ReadPage[] {
  const kept = pages.flatMap((page) => {
    const items = page.items.filter((item) => {
      const id = itemId(item);
      return id !== null && keep.has(id);
    });
    return items.length > 0 ? [{ items }] : [];
  });
  return kept.map((page, i) => ({ ...page, more: i < kept.length - 1 }));
}

async function* replay(
  pages: readonly ReadPage[],
  onPage?: (ids: string[]) => Promise<void>,
): AsyncIterable<ReadPage> {
  for (const page of pages) {
    await onPage?.(pageObjectIds(page));
    yield page;
  }
}

/**
 * The platform port with the requested rows of `kind` already read: a sync-button run reads
 * the requested rows page by page to attribute them (observe-requested.ts), then writes its own
 * rows of each page. The hook, if any, runs before each page is handed on (a run answering
 * another request's rows adopts the outcomes other runs already know for them).
 */
export function withReadPages(
  platform: SyncPlatform,
  kind: ObjectKindName,
  pages: readonly ReadPage[],
  onPage?: (ids: string[]) => Promise<void>,
): SyncPlatform {
  return {
    ...platform,
    readyPages: (asked, options) =>
      asked === kind && options?.requestedToSync === true
        ? replay(pages, onPage)
        : platform.readyPages(asked, options),
  };
}
