import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { createAppContext, endpointFromConfig } from '../app/app-context.ts';
import { resolveConnection } from '../app/connection.ts';
import { OBJECT_KINDS, type ObjectKindName } from '../sync/objects/kinds.ts';
import { type ObjectSyncSummary, syncObjects } from '../sync/objects/sync-objects.ts';
import { recorded } from '../sync/runs/record-run.ts';
import { progressReporter } from './progress.ts';
import { EXIT, withRuntime } from './runtime.ts';

const TARGETS = [...OBJECT_KINDS, 'all'] as const;
type Target = (typeof TARGETS)[number];

function target(value: string): Target {
  if (!(TARGETS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`choose one of: coa, ${TARGETS.join(', ')}`);
  }
  return value as Target;
}

function summaryLine(s: ObjectSyncSummary): string {
  if (s.busy) return `${s.kind}: another sync of this kind is running; nothing done`;
  return (
    `${s.kind}: ${s.read} read, ${s.posted} posted to the ERP, ${s.failed} failed, ${s.skipped} already known, ` +
    `${s.reported.items} reported in ${s.reported.batches} batches` +
    (s.vendorsCreated ? `, ${s.vendorsCreated} vendors created` : '') +
    ` (${(s.durationMs / 1000).toFixed(1)} s)`
  );
}

export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description('sync ready objects now: transactions, reimbursements, transfers, cashbacks, bills or all')
    .argument('<what>', `one of: ${TARGETS.join(', ')}`, target)
    .option('--slices <n>', 'read this many date slices side by side', (v) => Number.parseInt(v, 10), 4)
    .option('--json', 'print the summary as JSON')
    .action((what: Target, options: { slices: number; json?: boolean }) =>
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
          const kinds: ObjectKindName[] = what === 'all' ? [...OBJECT_KINDS] : [what];
          const summaries: ObjectSyncSummary[] = [];
          for (const kind of kinds) {
            const progress = progressReporter(kind, log);
            const summary = await recorded(sql, { connectionId, kind, trigger: 'cli' }, () =>
              syncObjects(
                {
                  sql,
                  erp: app.erp,
                  platform: app.syncPlatform,
                  connectionId,
                  log,
                  onProgress: progress.update,
                },
                kind,
                {
                  slices: options.slices,
                },
              ),
            );
            progress.done();
            summaries.push(summary);
            if (!options.json) process.stdout.write(`${summaryLine(summary)}\n`);
          }
          if (options.json) process.stdout.write(`${JSON.stringify(summaries)}\n`);
          return summaries.some((s) => s.failed > 0) ? EXIT.partial : EXIT.ok;
        } finally {
          await app.close();
        }
      }),
    );
}
