import { createLogger, type Logger } from '../../../../src/log.ts';

/** A logger whose JSON lines are kept, to prove that nothing secret was written. */
export function capturingLogger(level = 'debug'): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const log = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
  return { log, text: () => lines.join('') };
}
