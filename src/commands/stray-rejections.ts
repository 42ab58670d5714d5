import { databaseUnavailableMessage, isDatabaseUnavailable } from '../app/index.ts';
import { EXIT } from '../exit-codes.ts';
import type { Logger } from '../log.ts';

/**
 * What to do with a rejection no code awaited. postgres.js 3.4.x can reject from its own
 * connection handling when the server goes away, outside any query a command awaits
 * (docs/decisions.md "Kind locks on a connection of their own"); the command's own work meets
 * the same outage, but the stray rejection reaches the runtime first, which would end the
 * process with a stack and exit 1.
 * - A command ends as it does when its work meets the outage: one line, exit 69 (README "Exit
 *   codes"); what was done is kept by the outbox and the sync ledger.
 * - The worker keeps running: its jobs meet the outage themselves and are retried, and its pool
 *   connects again once the database is back. The rejection is logged.
 * Anything else is a defect, and still ends the process as the runtime would (null).
 */
export function answerStrayRejection(
  reason: unknown,
  role: 'command' | 'worker',
): { exitCode: number; line: string } | { warn: string } | null {
  if (!isDatabaseUnavailable(reason)) return null;
  if (role === 'worker') return { warn: 'PostgreSQL went away under a query no job was waiting for' };
  return { exitCode: EXIT.unavailable, line: `ledgersync: ${databaseUnavailableMessage(reason)}\n` };
}

let role: 'command' | 'worker' = 'command';
let workerLog: Logger | null = null;
let installed = false;

/** Installs the answer (once per process); `role` says which one applies from now on. */
export function guardStrayRejections(as: 'command' | 'worker', log?: Logger): void {
  role = as;
  workerLog = log ?? workerLog;
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    const answer = answerStrayRejection(reason, role);
    if (answer === null) throw reason;
    if ('warn' in answer) {
      workerLog?.warn({ err: reason }, answer.warn);
      return;
    }
    process.stderr.write(answer.line);
    process.exit(answer.exitCode);
  });
}
