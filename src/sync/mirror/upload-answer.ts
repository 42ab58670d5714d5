import type { DesiredItem, RemoteItem } from './model.ts';

/**
 * What the mirror may record, and so later PATCH or DELETE (docs/platform.md F41). The one rule:
 * an id_map row gets a svc_id only for an item the mirror itself sent under the ERP's remote id,
 * once the platform confirmed it (the upload answer names that `id`, or the collection lists it
 * after the upload or after a DEVELOPER_7020, F12). diffKind PATCHes and DELETEs only rows with a
 * svc_id, so an item someone else put on the connection never gets a row and is never touched,
 * even when an answer names it: deactivating it would switch off another party's chart.
 * (Not covered here: connection-migration's rebuild-id-map.ts reads a connection's whole chart back
 * into id_map, and docs/decisions.md says what that means for the run after it.)
 */
export interface AnswerMatch {
  /** Sent and named by the answer: created, with the answer's svc_id. */
  confirmed: RemoteItem[];
  /** Named by the answer, not sent: never recorded. */
  foreign: RemoteItem[];
  /** Sent and not named by the answer (or named unreadably): unknown until the collection says. */
  unconfirmed: DesiredItem[];
}

/** Matches an upload answer to the items sent, by the remote id the client sent (`id`). */
export function matchAnswer(sent: readonly DesiredItem[], answer: readonly RemoteItem[]): AnswerMatch {
  const sentIds = new Set(sent.map((item) => item.remoteId));
  const answered = new Map<string, RemoteItem>();
  const foreign: RemoteItem[] = [];
  for (const item of answer) {
    if (!sentIds.has(item.remoteId)) foreign.push(item);
    else if (!answered.has(item.remoteId)) answered.set(item.remoteId, item);
  }
  return {
    confirmed: [...answered.values()],
    foreign,
    unconfirmed: sent.filter((item) => !answered.has(item.remoteId)),
  };
}
