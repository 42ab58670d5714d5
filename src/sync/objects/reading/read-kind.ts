import type { Logger } from '../../../log.ts';
import { kindSpec, type ObjectKindName, type PlatformObject } from '../kinds.ts';
import type { ReadItem, ReadPage, SyncPlatform } from '../platform-port.ts';
import type { RangeBoard } from './range-board.ts';
import { readSplit } from './split-reader.ts';

/** How a run reads a kind: alone or sharing a plan with other processes, and when to stop. */
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
   * between them as they go (split-reader.ts).
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
  log?: Logger;
}

/** The date a kind's list filters on (docs/platform.md F23, G4), in ms; null when it has none. */
function dateOf(kind: ObjectKindName): (item: ReadItem) => number | null {
  const splitDate = kindSpec(kind).splitDate;
  return (item) => {
    if (!item.ok || !splitDate) return null;
    const at = splitDate(item.value as PlatformObject);
    const ms = at ? Date.parse(at) : Number.NaN;
    return Number.isFinite(ms) ? ms : null;
  };
}

/**
 * The ready pages of `kind` for one run. Kinds the platform filters by date are read by several
 * cursors that split the backlog between them (split-reader.ts), over the port's one-cursor
 * reads of a date range; the others, and sync-button reads, are one cursor over the whole list.
 */
export function readKind(
  platform: SyncPlatform,
  kind: ObjectKindName,
  options: ReadOptions,
): AsyncIterable<ReadPage> {
  const requestedToSync = options.requestedToSync === true;
  if (!kindSpec(kind).splitDate || requestedToSync) return platform.readyPages(kind, { requestedToSync });
  return readSplit(
    {
      pages: (range, options) => platform.readyPages(kind, { range, ...options }),
      dateOf: dateOf(kind),
    },
    {
      cursors: Math.max(1, options.slices ?? 1),
      ...(options.board ? { board: options.board } : {}),
      ...(options.reader ? { reader: options.reader } : {}),
      ...(options.role ? { role: options.role } : {}),
      ...(options.stop ? { stop: options.stop } : {}),
      ...(options.onLastPages ? { onLastPages: options.onLastPages } : {}),
      ...(options.log ? { log: options.log } : {}),
    },
  );
}
