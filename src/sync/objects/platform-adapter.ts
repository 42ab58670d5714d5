import type { PlatformClient } from '../../platform/client.ts';
import { DuplicateUploadError } from '../../platform/errors.ts';
import { readSlices } from '../../platform/pagination.ts';
import type { SyncResult } from '../../platform/schemas/syncs.ts';
import type { ObjectKindName } from './kinds.ts';
import type { ReadOptions, ReadPage, SyncPlatform } from './platform-port.ts';

type DateRange = { from_date?: string; to_date?: string };

/**
 * Date ranges covering all time: open at both ends, equal cuts over the last year between.
 * Bounds are inclusive, so each range ends 1 ms before the next begins and no object is in two.
 */
export function openDateRanges(count: number, now = Date.now()): DateRange[] {
  if (count <= 1) return [{}];
  const yearMs = 365 * 24 * 3600 * 1000;
  const cuts = Array.from(
    { length: count - 1 },
    (_, i) => now - yearMs + Math.floor((yearMs * (i + 1)) / count),
  );
  return Array.from({ length: count }, (_, i) => ({
    ...(i > 0 ? { from_date: new Date(cuts[i - 1]!).toISOString() } : {}),
    ...(i < count - 1 ? { to_date: new Date(cuts[i]! - 1).toISOString() } : {}),
  }));
}

function pagesOf(
  client: PlatformClient,
  kind: ObjectKindName,
  range: DateRange,
  requestedToSync: boolean,
): AsyncIterable<ReadPage> {
  const o = client.objects;
  switch (kind) {
    case 'transactions':
      return o.readyTransactions({ requestedToSync, ...range }).pages();
    case 'reimbursements':
      return o.readyReimbursements({ requestedToSync, ...range }).pages();
    case 'transfers':
      return o.readyTransfers(range).pages();
    case 'cashbacks':
      return o.readyCashbacks(range).pages();
    case 'bills':
      // Bills have no date-range filter (docs/platform.md G11): one cursor.
      return o.readyBills().pages();
  }
}

/** The platform client seen through the narrow port object sync needs. */
export function syncPlatformFrom(client: PlatformClient): SyncPlatform {
  return {
    readyPages(kind, options: ReadOptions) {
      const slices = kind === 'bills' ? 1 : Math.max(1, options.slices ?? 1);
      const requested = options.requestedToSync === true;
      if (slices === 1) return pagesOf(client, kind, {}, requested);
      return readSlices(
        (range: DateRange) => pagesOf(client, kind, range, requested),
        openDateRanges(slices),
        slices,
      );
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
