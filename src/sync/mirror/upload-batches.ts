import { DuplicateUploadError, ValidationError } from '../../platform/index.ts';
import { Adopter } from './adopter.ts';
import { namedBadItems } from './bad-items.ts';
import type { DesiredItem, KindOps, RemoteItem } from './model.ts';
import { matchAnswer } from './upload-answer.ts';

/** Where an upload's outcomes go: the caller records them in id_map and counts them. */
export interface UploadSink {
  created(items: RemoteItem[]): Promise<void>;
  adopted(items: RemoteItem[]): Promise<void>;
  /** Refused by the platform or the schema check: recorded, not sent again while unchanged. */
  refused(items: Array<{ item: DesiredItem; reason: string }>): Promise<void>;
  /**
   * Not sendable yet (DesiredItem.problem), or sent and confirmed neither by the answer nor by the
   * collection (docs/platform.md F41): reported only, not recorded, so the next run tries again.
   */
  waiting(items: Array<{ item: DesiredItem; reason: string }>): void;
  /** Named by an upload answer but not sent (F41): never recorded, at most logged. */
  ignored(items: RemoteItem[]): void;
  /** Called before every platform call: throws to stop (abort signal). */
  beforeCall(): void;
}

/**
 * Uploads new items in batches of ops.batchSize (500, docs/platform.md G9), all-or-nothing per call,
 * so that a bad item never blocks the good ones:
 * 1. every item is checked against the request schema first; a bad one is refused locally;
 * 2. a 422 (DEVELOPER_7001) that names the bad items drops exactly those and resends the rest
 *    at once (2 calls for one bad item in 500);
 * 3. a 422 that names none is isolated by halving: about 2 × log2(500) = 18 more calls per bad
 *    item in a batch of 500;
 * 4. a 400 DEVELOPER_7020 (F12: some remote id already exists; nothing was created) adopts what
 *    the platform already holds (Adopter) and resends the rest: never a duplicate, never given up;
 * 5. a 201 is matched to what was sent (F41, upload-answer.ts): only confirmed items are created;
 *    items sent and not confirmed are looked up in the collection; foreign ones are ignored.
 * Any other error (network, 5xx after the client's retries, auth, 7089) is not an item's fault
 * and stops the upload.
 */
export async function uploadInBatches(
  ops: KindOps,
  items: readonly DesiredItem[],
  sink: UploadSink,
  adopter: Adopter = new Adopter(ops),
): Promise<void> {
  const valid: DesiredItem[] = [];
  const invalid: Array<{ item: DesiredItem; reason: string }> = [];
  const waiting: Array<{ item: DesiredItem; reason: string }> = [];
  for (const item of items) {
    if (item.problem) {
      waiting.push({ item, reason: `not sent: ${item.problem}` });
      continue;
    }
    const reason = ops.check(item.upload);
    if (reason === null) valid.push(item);
    else invalid.push({ item, reason: `not sent, invalid: ${reason}` });
  }
  sink.waiting(waiting);
  await sink.refused(invalid);
  for (let at = 0; at < valid.length; at += ops.batchSize) {
    await sendIsolating(ops, valid.slice(at, at + ops.batchSize), sink, adopter);
  }
}

async function sendIsolating(
  ops: KindOps,
  batch: DesiredItem[],
  sink: UploadSink,
  adopter: Adopter,
): Promise<void> {
  const queue: DesiredItem[][] = [batch];
  let refreshes = 0;
  while (queue.length > 0) {
    let items = queue.shift()!;
    // Once the platform's list has been read, items it already holds are adopted without a call.
    items = await adoptKnown(items, adopter, sink);
    if (items.length === 0) continue;
    sink.beforeCall();
    try {
      const answer = await ops.upload(items.map((i) => i.upload));
      const { confirmed, foreign, unconfirmed } = matchAnswer(items, answer.items);
      await sink.created(confirmed);
      if (foreign.length > 0) sink.ignored(foreign);
      if (unconfirmed.length > 0) await settleUnconfirmed(unconfirmed, adopter, sink);
    } catch (error) {
      if (error instanceof DuplicateUploadError) {
        // A 7020 naming nothing the list shows may be a concurrent writer: read once more.
        const fresh = !adopter.loaded || refreshes++ < 1;
        if (fresh) await adopter.load();
        const held = adopter.find(items.map((i) => i.remoteId));
        if (held.length > 0) {
          queue.unshift(items);
          continue;
        }
        queue.unshift(...(await unlistedDuplicates(items, error, sink)));
        continue;
      }
      // 422 from the platform, or the client's own check before sending (status null, no call).
      if (error instanceof ValidationError && (error.status === 422 || error.status === null)) {
        queue.unshift(...(await isolate(items, error, ops, sink)));
        continue;
      }
      throw error;
    }
  }
}

/**
 * Items a 201 did not confirm (F41): the collection is read again, and those it lists were created
 * by this upload (it was all-or-nothing and insert-only, F12). The others are unknown: reported,
 * not recorded; the next run sends them again and adopts them if a 7020 shows they exist after all.
 */
async function settleUnconfirmed(items: DesiredItem[], adopter: Adopter, sink: UploadSink): Promise<void> {
  sink.beforeCall();
  await adopter.load();
  const found = adopter.find(items.map((i) => i.remoteId));
  await sink.created(found);
  const foundIds = new Set(found.map((f) => f.remoteId));
  const reason =
    'sent, but neither the upload answer nor the platform list confirms it was created; not recorded, sent again on the next run';
  sink.waiting(items.filter((i) => !foundIds.has(i.remoteId)).map((item) => ({ item, reason })));
}

/** Adopts the items the platform is known to hold; returns the others. */
async function adoptKnown(items: DesiredItem[], adopter: Adopter, sink: UploadSink): Promise<DesiredItem[]> {
  const held = adopter.find(items.map((i) => i.remoteId));
  if (held.length === 0) return items;
  await sink.adopted(held);
  const heldIds = new Set(held.map((h) => h.remoteId));
  return items.filter((i) => !heldIds.has(i.remoteId));
}

/**
 * A 7020 whose duplicates the connection's list does not show (e.g. held by another connection
 * of the business): the named ones are refused, the rest resent; unnamed ones are halved out.
 */
async function unlistedDuplicates(
  items: DesiredItem[],
  error: DuplicateUploadError,
  sink: UploadSink,
): Promise<DesiredItem[][]> {
  const named = new Set(error.duplicateIds);
  const dup = items.filter((i) => named.has(i.remoteId));
  const reason = `already exists on the platform (DEVELOPER_7020) but is not listed for this connection: ${error.platformMessage}`;
  if (dup.length > 0) {
    await sink.refused(dup.map((item) => ({ item, reason })));
    const rest = items.filter((i) => !named.has(i.remoteId));
    return rest.length > 0 ? [rest] : [];
  }
  if (items.length === 1) {
    await sink.refused([{ item: items[0]!, reason }]);
    return [];
  }
  return halves(items);
}

/** A 422: refuse the named items and resend the rest, or halve when none is named. */
async function isolate(
  items: DesiredItem[],
  error: ValidationError,
  ops: KindOps,
  sink: UploadSink,
): Promise<DesiredItem[][]> {
  const naming = namedBadItems(
    error.additionalInfo,
    items.map((i) => i.remoteId),
    ops.listKey,
  );
  const message = error.platformMessage;
  if (naming.kind === 'items') {
    const refused = [...naming.bad].map(([index, reason]) => ({
      item: items[index]!,
      reason: reason ?? message,
    }));
    await sink.refused(refused);
    const rest = items.filter((_, index) => !naming.bad.has(index));
    return rest.length > 0 ? [rest] : [];
  }
  if (naming.kind === 'request' || items.length === 1) {
    await sink.refused(items.map((item) => ({ item, reason: message })));
    return [];
  }
  return halves(items);
}

function halves(items: DesiredItem[]): DesiredItem[][] {
  const middle = Math.ceil(items.length / 2);
  return [items.slice(0, middle), items.slice(middle)];
}
