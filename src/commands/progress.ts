import type { Logger } from '../log.ts';

interface Counts {
  read: number;
  posted: number;
  failed: number;
  durationMs: number;
}

function perSecond(counts: Counts): number {
  return counts.durationMs > 0 ? Math.round((counts.read * 1000) / counts.durationMs) : 0;
}

/**
 * Progress of a long run of one or more kinds read side by side: one line on a terminal, redrawn
 * with every kind's counts and rate (in the order the kinds were first heard of), a log line per
 * kind every 5 s otherwise (log files and CI stay readable).
 */
export function progressReporter(log: Logger) {
  const tty = process.stderr.isTTY === true;
  const lastLog = new Map<string, number>();
  const last = new Map<string, Counts>();
  return {
    update(kind: string, counts: Counts) {
      last.set(kind, counts);
      if (tty) {
        const parts = [...last].map(
          ([k, c]) => `${k}: ${c.read} read · ${c.posted} posted · ${c.failed} failed · ${perSecond(c)}/s`,
        );
        process.stderr.write(`\r${parts.join(' | ')}   `);
      } else if (Date.now() - (lastLog.get(kind) ?? 0) >= 5000) {
        lastLog.set(kind, Date.now());
        log.info({ kind, ...counts, perSecond: perSecond(counts) }, 'progress');
      }
    },
    done() {
      if (tty && last.size > 0) process.stderr.write('\n');
    },
  };
}
