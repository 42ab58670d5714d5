import type { ReadPage, SyncPlatform } from '../objects/platform-port.ts';

/** The id of every item of a page, readable or not. */
export function pageObjectIds(page: ReadPage): string[] {
  return page.items.flatMap((item) => {
    if (item.ok) {
      const id = (item.value as { id?: unknown }).id;
      return typeof id === 'string' ? [id] : [];
    }
    return item.id ? [item.id] : [];
  });
}

async function* withHook(
  pages: AsyncIterable<ReadPage>,
  onPage: (ids: string[]) => Promise<void>,
): AsyncIterable<ReadPage> {
  for await (const page of pages) {
    await onPage(pageObjectIds(page));
    yield page;
  }
}

/**
 * The platform port with a hook on every page read: the sync-button run uses it to adopt the
 * outcomes other runs already know for the requested rows before the page is processed.
 */
export function withPageHook(platform: SyncPlatform, onPage: (ids: string[]) => Promise<void>): SyncPlatform {
  return {
    readyPages: (kind, options) => withHook(platform.readyPages(kind, options), onPage),
    postSyncs: (body) => platform.postSyncs(body),
    uploadVendors: (vendors) => platform.uploadVendors(vendors),
    codeTransactionVendor: (transactionId, vendorRemoteId) =>
      platform.codeTransactionVendor(transactionId, vendorRemoteId),
  };
}
