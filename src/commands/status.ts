import type { Command } from 'commander';
import { createAppContext, endpointFromConfig } from '../app/app-context.ts';
import { resolveConnection } from '../app/connection.ts';
import { formatStatus } from '../sync/status/format-status.ts';
import { statusReport } from '../sync/status/status-report.ts';
import { EXIT, withRuntime } from './runtime.ts';

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description(
      'per kind: synced, failed by category with top reasons, outbox, last run, sync-button latency',
    )
    .option('--json', 'print the report as JSON')
    .action((options: { json?: boolean }) =>
      withRuntime(async ({ sql, config, log, services }) => {
        const app = createAppContext({
          config,
          log,
          sql,
          redisUrl: services.redisUrl,
          endpoint: endpointFromConfig(config),
        });
        try {
          const connectionId = await resolveConnection(app.platform, sql, config.PLATFORM_CONNECTION_ID);
          const report = await statusReport(sql, connectionId);
          process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : `${formatStatus(report)}\n`);
          return EXIT.ok;
        } finally {
          await app.close();
        }
      }),
    );
}
