import type { Command } from 'commander';
import { connectionForStatus, reencryptTokens } from '../app/index.ts';
import { EXIT } from '../exit-codes.ts';
import { formatStatus, type Health, statusReport } from '../operations/index.ts';
import { GrantUnusableError } from '../platform/index.ts';
import { createQueues, latestMigrationJob } from '../queue/index.ts';
import { migrationProgress, progressLines } from '../sync/connection-migration/index.ts';
import { findExternalSyncs } from '../sync/reconcile/reconcile.ts';
import { withRuntime } from './runtime.ts';
import { withApp } from './with-app.ts';

/**
 * A script can tell a PROBLEM banner without reading it: the report is complete, but what it
 * checked is broken, as with `erp check` (README "Exit codes": 3). Needing a look is not a failure.
 */
function statusExitCode(health: Pick<Health, 'state'>): number {
  return health.state === 'problem' ? EXIT.partial : EXIT.ok;
}

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description(
      'health (worker up, last good and next scheduled run, failed and stalled jobs), then per kind: synced, failed by category with top reasons, outbox, last run, sync-button latency',
    )
    .option('--json', 'print the report as JSON')
    .action((options: { json?: boolean }) =>
      withRuntime((runtime) =>
        withApp(runtime, async (app) => {
          const { sql, config, services, log } = runtime;
          // Before anything renews: tokens still under an old key move to TOKEN_ENCRYPTION_KEY, and
          // the report says what is left (README, rotating TOKEN_ENCRYPTION_KEY).
          const tokenEncryption = await reencryptTokens(app);
          // A revoked consent is what status must show, not a reason to stop (README "Exit codes"),
          // even when it is met before any connection was recorded (null: nothing per connection).
          const connectionId = await connectionForStatus(app, config.PLATFORM_CONNECTION_ID);
          // Objects synced outside ledgersync count without `reconcile` having run first: what the
          // platform shows since the last read is recorded now (G25). A platform that does not
          // answer leaves the count at what is already known; status still reports.
          if (connectionId !== null) {
            await findExternalSyncs(sql, app.platform, connectionId).catch((error) => {
              // An unusable consent is the report's banner already; anything else is worth a line.
              if (error instanceof GrantUnusableError) return;
              // The cause in words, not a stack: status still reports what is known.
              const reason = error instanceof Error ? error.message : String(error);
              log.warn({ reason }, 'objects synced outside ledgersync could not be read from the platform');
            });
          }
          // The worker's queues and heartbeats, read through the queues' own connections.
          const queues = createQueues({ redisUrl: services.redisUrl, prefix: config.QUEUE_PREFIX });
          let code: number = EXIT.ok;
          try {
            const report = {
              ...(await statusReport(sql, connectionId, {
                queues: queues.all(),
                ...(config.PLATFORM_GRANT === 'authorization_code' && config.PLATFORM_CLIENT_ID
                  ? { grantClientId: config.PLATFORM_CLIENT_ID }
                  : {}),
              })),
              ...(tokenEncryption ? { tokenEncryption } : {}),
            };
            // Where the latest connection migration stands, and the job that runs it.
            const migration = await migrationProgress(sql, {
              job: () => latestMigrationJob(queues.migration),
            });
            const text = migration ? `\n\n${progressLines(migration).join('\n')}` : '';
            process.stdout.write(
              options.json
                ? `${JSON.stringify({ ...report, migration })}\n`
                : `${formatStatus(report)}${text}\n`,
            );
            code = statusExitCode(report.health);
          } finally {
            await queues.close();
          }
          return code;
        }),
      ),
    );
}
