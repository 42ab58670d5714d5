import type { Logger } from '../log.ts';

interface Counts {
  read: number;
  posted: number;
  failed: number;
  durationMs: number;
}

/**
 * Progress of a long run: a one-line bar with counts and rate on a terminal, a log line every
 * 5 s otherwise (log files and CI stay readable).
 */
export function progressReporter(label: string, log: Logger) {
  const tty = process.stderr.isTTY === true;
  let lastLog = 0;
  let last: Counts | null = null;
  return {
    update(counts: Counts) {
      last = counts;
      const rate = counts.durationMs > 0 ? Math.round((counts.read * 1000) / counts.durationMs) : 0;
      if (tty) {
        process.stderr.write(
          `\r${label}: ${counts.read} read · ${counts.posted} posted · ${counts.failed} failed · ${rate}/s   `,
        );
      } else if (Date.now() - lastLog >= 5000) {
        lastLog = Date.now();
        log.info({ kind: label, ...counts, perSecond: rate }, 'progress');
      }
    },
    done() {
      if (tty && last) process.stderr.write('\n');
    },
  };
}
