import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.ts';

/** A logger at info whose JSON lines are kept in `lines`, for tests that read what was logged. */
export function capturedLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  });
  return { log, lines };
}
