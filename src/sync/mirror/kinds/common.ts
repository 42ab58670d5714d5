import type { z } from 'zod';
import type { ItemResult, Listing, PlatformClient } from '../../../platform/index.ts';
import { issuesText } from '../../../zod-issues.ts';
import type { RemoteItem, UploadAnswer } from '../model.ts';
import type { Visibility } from '../types.ts';

export type Chart = PlatformClient['chart'];

/** Calls made, for the summary: writes (POST/PATCH/PUT/DELETE) and reads (GET pages). */
export interface Meter {
  writes: number;
  reads: number;
}

/** The target connection, sent with every call (docs/platform.md G30, F8-F13). */
export interface Target {
  accounting_connection_id: string;
}

/** A schema check as a reason ("name: Too small..."), or null when the item is valid. */
export function checkWith(schema: z.ZodType): (item: Record<string, unknown>) => string | null {
  return (item) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) return null;
    return issuesText(parsed.error, { root: '(item)' });
  };
}

/** The parsed items of an upload answer as RemoteItems; unparsable ones are only counted. */
export function answerOf<T>(
  results: readonly ItemResult<T>[],
  toRemote: (item: T) => RemoteItem,
): UploadAnswer {
  const items: RemoteItem[] = [];
  let unreadable = 0;
  for (const result of results) {
    if (result.ok) items.push(toRemote(result.value));
    else unreadable++;
  }
  return { items, unreadable };
}

/** A platform list as RemoteItems, counting each page read. */
export async function* remoteItems<T>(
  listing: Listing<T>,
  meter: Meter,
  toRemote: (item: T) => RemoteItem,
): AsyncGenerator<RemoteItem> {
  for await (const page of listing.pages()) {
    meter.reads++;
    for (const result of page.items) if (result.ok) yield toRemote(result.value);
  }
}

/** Counts one write call, whatever its outcome. */
export async function counted<T>(meter: Meter, call: () => Promise<T>): Promise<T> {
  meter.writes++;
  return call();
}

export function visibilityOf(value: string | null | undefined): Visibility {
  return value === 'HIDDEN' ? 'HIDDEN' : 'VISIBLE';
}

/** "" and null both mean "no code" (F8). */
export function codeOf(value: string | null | undefined): string {
  return value ?? '';
}
