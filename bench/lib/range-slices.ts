import type { PlatformClient } from '../../src/platform/client.ts';
import { dateSlices, readSlices } from '../../src/platform/pagination.ts';
import type { ReadPage, SyncPlatform } from '../../src/sync/objects/platform-port.ts';

/**
 * The platform port with ready reads cut into `slices` equal date ranges over [from, to]: the
 * span the data really covers, instead of the product's fixed cuts over the last year. The
 * benchmark uses it to show what the pipeline does when its slices are balanced; every other
 * call is the product's own.
 */
export function rangeSlicedPlatform(
  base: SyncPlatform,
  client: PlatformClient,
  range: { from: string; to: string },
): SyncPlatform {
  return {
    ...base,
    readyPages(kind, options) {
      if (kind !== 'transactions' && kind !== 'reimbursements') return base.readyPages(kind, options);
      const slices = dateSlices(new Date(range.from), new Date(range.to), Math.max(1, options.slices ?? 1));
      const requestedToSync = options.requestedToSync === true;
      const read = (slice: { from_date: string; to_date: string }): AsyncIterable<ReadPage> =>
        kind === 'transactions'
          ? client.objects.readyTransactions({ requestedToSync, ...slice }).pages()
          : client.objects.readyReimbursements({ requestedToSync, ...slice }).pages();
      return readSlices(read, slices, slices.length);
    },
  };
}
