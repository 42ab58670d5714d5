import type { PostOutcome, SyncBody } from '../reporting/index.ts';
import type { ObjectKindName } from './kinds.ts';
import type { DateRange } from './reading/date-range.ts';

/** One item of a page as read: parsed, or a per-item failure (the rest of the page is fine). */
export type ReadItem = { ok: true; value: unknown } | { ok: false; id: string | null; error: string };

export interface ReadPage {
  items: ReadItem[];
  /** False on a cursor's last page (page.next was null); unknown when absent. */
  more?: boolean;
  /**
   * page.next as the platform gave it (null on the last page), where a reader that stops here
   * can be taken up again (PageQuery.resumeFrom); absent where the port does not know it.
   */
  next?: string | null;
}

/** Which pages the port reads: one cursor over the ready list of a kind. */
export interface PageQuery {
  /** Only objects dated within this range (kinds read by date, docs/platform.md F28); all when absent. */
  range?: DateRange;
  /** Sync-button reads: only rows the customer asked for (docs/platform.md F16). */
  requestedToSync?: boolean;
  /**
   * A probe: only the first objects' dates are wanted, so the page asks for the fewest items a
   * page may hold (docs/platform.md F4) instead of the most.
   */
  probe?: boolean;
  /**
   * Go on from this page.next link, saved from an earlier read of the same query (ReadPage.next),
   * instead of the first page: the sync-button watchdog reads only what its press's run has not
   * (docs/platform.md F4: a link is followed exactly as given).
   */
  resumeFrom?: string;
}

/**
 * What object sync needs from the platform, and nothing more. The platform client implements
 * it (platform-adapter.ts); keeping the port narrow keeps protocol details out of the pipeline.
 */
export interface SyncPlatform {
  /** Gets ready to call the platform (its access token) while the run sets out its plan. */
  prepare?(): Promise<void>;
  /**
   * One cursor over the ready list of `kind`, page by page. Splitting a backlog between cursors,
   * and sharing that plan with other processes, is the sync layer's (reading/read-kind.ts).
   */
  readyPages(kind: ObjectKindName, query?: PageQuery): AsyncIterable<ReadPage>;
  postSyncs(body: SyncBody): Promise<PostOutcome>;
  /** Uploads accounting vendors; one that already exists (F12, 7020) counts as uploaded. */
  uploadVendors(vendors: { id: string; name: string }[]): Promise<void>;
  /** F18: codes a transaction to an accounting vendor (field `Merchant`). */
  codeTransactionVendor(transactionId: string, vendorRemoteId: string): Promise<void>;
}
