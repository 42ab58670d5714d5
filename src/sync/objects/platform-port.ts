import type { PostOutcome, SyncBody } from '../reporting/index.ts';
import type { ObjectKindName } from './kinds.ts';
import type { RangeBoard } from './reading/range-board.ts';

/** One item of a page as read: parsed, or a per-item failure (the rest of the page is fine). */
export type ReadItem = { ok: true; value: unknown } | { ok: false; id: string | null; error: string };

export interface ReadPage {
  items: ReadItem[];
  /** False on a cursor's last page (page.next was null); unknown when absent. */
  more?: boolean;
}

export interface ReadOptions {
  /** The run's shared reading plan (several processes read one backlog together). */
  board?: RangeBoard;
  /** This reader's name on the board. */
  reader?: string;
  /** 'start' plans the run's reading; 'join' takes part in one another process started. */
  role?: 'start' | 'join';
  /** Sync-button reads: only rows the customer asked for (docs/platform.md F16). */
  requestedToSync?: boolean;
  /**
   * Most cursors reading at once (one cursor cannot fill the rate budget); they split the data
   * between them as they go (reading/split-reader.ts).
   */
  slices?: number;
  /**
   * Once aborted, the reading ends between pages: every page already read is still handed over
   * (so the consumer writes it), and ranges not read to their end go back to the board.
   */
  stop?: AbortSignal;
  /**
   * Told once, when the reading is down to its last pages (reads split by date only): a bulk run
   * posts what has gathered then, so its final batch is small.
   */
  onLastPages?: () => void;
}

/**
 * What object sync needs from the platform, and nothing more. The platform client implements
 * it (platform-adapter.ts); keeping the port narrow keeps protocol details out of the pipeline.
 */
export interface SyncPlatform {
  /** Gets ready to call the platform (its access token) while the run sets out its plan. */
  prepare?(): Promise<void>;
  readyPages(kind: ObjectKindName, options: ReadOptions): AsyncIterable<ReadPage>;
  postSyncs(body: SyncBody): Promise<PostOutcome>;
  /** Uploads accounting vendors; one that already exists (F12, 7020) counts as uploaded. */
  uploadVendors(vendors: { id: string; name: string }[]): Promise<void>;
  /** F18: codes a transaction to an accounting vendor (field `Merchant`). */
  codeTransactionVendor(transactionId: string, vendorRemoteId: string): Promise<void>;
}
