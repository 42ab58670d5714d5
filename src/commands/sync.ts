import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { mirrorChart } from '../sync/mirror/index.ts';
import { dryRunObjects } from '../sync/objects/dry-run.ts';
import { OBJECT_KINDS, type ObjectKindName } from '../sync/objects/kinds.ts';
import { type ObjectSyncSummary, syncObjects } from '../sync/objects/sync-objects.ts';
import { recorded } from '../sync/runs/record-run.ts';
import { progressReporter } from './progress.ts';
import { EXIT, withRuntime } from './runtime.ts';
import { withConnection } from './with-app.ts';

const TARGETS = ['coa', ...OBJECT_KINDS, 'all'] as const;
type Target = (typeof TARGETS)[number];

function target(value: string): Target {
  if (!(TARGETS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`choose one of: ${TARGETS.join(', ')}`);
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
    .description('mirror the chart of accounts (coa) or sync ready objects now; all = coa, then every kind')
    .argument('<what>', `one of: ${TARGETS.join(', ')}`, target)
    .option('--slices <n>', 'read this many date slices side by side', (v) => Number.parseInt(v, 10), 4)
    .option('--dry-run', 'show what would be uploaded, posted to the ERP and reported; write nothing')
    .option('--json', 'print the summary as JSON')
    .action((what: Target, options: { slices: number; json?: boolean; dryRun?: boolean }) =>
      withRuntime((runtime) =>
        withConnection(runtime, async (app, connectionId) => {
          const { sql, log } = runtime;
          const out = (line: string) => options.json || process.stdout.write(`${line}\n`);
          const results: unknown[] = [];
          let failures = 0;
          if (what === 'coa' || what === 'all') {
            const mirror = await recorded(sql, { connectionId, kind: 'coa', trigger: 'cli' }, () =>
              mirrorChart(
                { sql, erp: app.erp, platform: app.platform, connectionId, log },
                { dryRun: options.dryRun === true },
              ),
            );
            results.push(mirror);
            const kinds = Object.entries(mirror.kinds);
            failures += kinds.reduce((n, [, k]) => n + k.failed.length, 0);
            out(
              `coa${options.dryRun ? ' (dry run)' : ''}: ${kinds.map(([k, v]) => `${k} +${v.created} ~${v.updated} -${v.deactivated} !${v.failed.length}`).join(', ')} (${mirror.writeCalls} write calls)`,
            );
          }
          const kinds: ObjectKindName[] = what === 'all' ? [...OBJECT_KINDS] : what === 'coa' ? [] : [what];
          for (const kind of kinds) {
            if (options.dryRun) {
              const dry = await dryRunObjects(sql, app.syncPlatform, connectionId, kind);
              results.push(dry);
              out(
                `${kind} (dry run): ${dry.read} ready, would post ${dry.wouldPost} to the ERP, ${dry.wouldFail} would be reported failed, ${dry.alreadyKnown} already known, vendor creation for ${dry.wouldCreateVendorsFor}`,
              );
              for (const f of dry.sampleFailures) out(`  ${f.objectId}: ${f.message}`);
              continue;
            }
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
            results.push(summary);
            failures += summary.failed;
            out(summaryLine(summary));
          }
          if (options.json) process.stdout.write(`${JSON.stringify(results)}\n`);
          return failures > 0 && !options.dryRun ? EXIT.partial : EXIT.ok;
        }),
      ),
    );
}
