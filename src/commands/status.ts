import type { Command } from 'commander';
import { formatStatus } from '../sync/status/format-status.ts';
import { statusReport } from '../sync/status/status-report.ts';
import { EXIT, withRuntime } from './runtime.ts';
import { withConnection } from './with-app.ts';

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description(
      'per kind: synced, failed by category with top reasons, outbox, last run, sync-button latency',
    )
    .option('--json', 'print the report as JSON')
    .action((options: { json?: boolean }) =>
      withRuntime((runtime) =>
        withConnection(runtime, async (_app, connectionId) => {
          const { sql } = runtime;
          const report = await statusReport(sql, connectionId);
          process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : `${formatStatus(report)}\n`);
          return EXIT.ok;
        }),
      ),
    );
}
