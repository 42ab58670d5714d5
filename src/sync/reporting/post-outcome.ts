import type { SyncResult } from '../../platform/index.ts';
import type { SyncBody } from './freeze-batch.ts';

/**
 * The platform's answer to a sync post. `results` is empty when the answer had none: the
 * published answer is `{sync_id}` alone and means every item was applied (docs/platform.md F33).
 */
interface SyncAcknowledgement {
  sync_id: string | null;
  results: SyncResult[];
  sync_request_id: string | null;
}

export type PostOutcome =
  | { kind: 'acknowledged'; response: SyncAcknowledgement }
  /** docs/platform.md F15: 7005 to a key sent before with this very body: it was applied. */
  | { kind: 'already_applied' };

/** What reporting needs from the platform: posting one frozen batch. */
export interface ResultPoster {
  postSyncs(body: SyncBody): Promise<PostOutcome>;
}
