import type { ItemPage, PlatformClient, SyncResult } from '../../platform/index.ts';
import { DuplicateUploadError, PAGE_SIZE_MIN } from '../../platform/index.ts';
import { kindSpec, type ObjectKindName } from './kinds.ts';
import type { PageQuery, ReadPage, SyncPlatform } from './platform-port.ts';
import { ALL_TIME, dateQuery } from './reading/date-range.ts';

/** A listing's pages as object sync reads them: items, and whether another page follows. */
async function* readPages(pages: AsyncIterable<ItemPage<unknown>>): AsyncGenerator<ReadPage> {
  for await (const page of pages) yield { items: page.items, more: page.next !== null, next: page.next };
}

/** A kind's ready objects within a date range (the whole list when the kind splits on none). */
function pagesOf(client: PlatformClient, kind: ObjectKindName, query: PageQuery): AsyncIterable<ReadPage> {
  const spec = kindSpec(kind);
  const dates = spec.splitDate ? dateQuery(query.range ?? ALL_TIME) : {};
  const size = query.probe ? { page_size: PAGE_SIZE_MIN } : {};
  return readPages(
    client.objects
      .ready(spec.list, { requestedToSync: query.requestedToSync === true, ...dates, ...size })
      .pages(query.resumeFrom ? { resumeFrom: query.resumeFrom } : {}),
  );
}

/** The platform client seen through the narrow port object sync needs. */
export function syncPlatformFrom(client: PlatformClient): SyncPlatform {
  return {
    prepare: () => client.authenticate(),

    readyPages(kind, query: PageQuery = {}) {
      return pagesOf(client, kind, query);
    },

    async postSyncs(body) {
      const outcome = await client.syncs.postResults(
        body as Parameters<PlatformClient['syncs']['postResults']>[0],
      );
      if (!outcome.answer) return { kind: 'already_applied' };
      const results = outcome.answer.results.flatMap((r): SyncResult[] => (r.ok ? [r.value] : []));
      return {
        kind: 'acknowledged',
        response: {
          sync_id: outcome.answer.sync_id,
          results,
          sync_request_id: outcome.answer.sync_request_id,
        },
      };
    },

    async uploadVendors(vendors) {
      try {
        await client.chart.uploadVendors({ vendors });
      } catch (error) {
        // F12: an id that already exists was uploaded before (an earlier run or the mirror).
        if (error instanceof DuplicateUploadError && vendors.length === 1) return;
        throw error;
      }
    },

    async codeTransactionVendor(transactionId, vendorRemoteId) {
      await client.syncs.codeTransactionVendor(transactionId, vendorRemoteId);
    },
  };
}
