import type { Tuning } from './index.ts';

/** Whether a row of a scenario with several rows is to run (`--rows`; every row when unset). */
export function rowWanted(tuning: Tuning, id: string): boolean {
  return !tuning.rows || tuning.rows.has(id);
}
