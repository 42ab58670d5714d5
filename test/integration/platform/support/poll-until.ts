import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Reads `read` every 10 ms until `done` holds of what it read or `tries` reads are spent, and
 * returns the last read: for writes a test cannot await (a limiter dates its log entries in the
 * background), so the assertion that follows sees either the write or the value that proves it missing.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  tries: number,
): Promise<T> {
  let value = await read();
  for (let left = tries - 1; left > 0 && !done(value); left--) {
    await sleep(10);
    value = await read();
  }
  return value;
}
