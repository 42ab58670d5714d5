import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { mirrorChart } from '../sync/mirror/index.ts';
import {
  dryRunObjects,
  kindFailureReason,
  OBJECT_KINDS,
  type ObjectKindName,
  type ObjectSyncSummary,
  SYNC_DEFAULTS,
  sideBySide,
  syncObjects,
} from '../sync/objects/index.ts';
import { recorded } from '../sync/runs/record-run.ts';
import { type KindFailure, kindFailuresText } from './kind-failure.ts';
import { progressReporter } from './progress.ts';
import { withRuntime } from './runtime.ts';
import { syncViaWorker } from './sync-via-worker.ts';
import { withConnection } from './with-app.ts';

const TARGETS = ['coa', ...OBJECT_KINDS, 'all'] as const;
type Target = (typeof TARGETS)[number];

function target(value: string): Target {
  if (!(TARGETS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`choose one of: ${TARGETS.join(', ')}`);
  }
  return value as Target;
}

/** --slices: a whole number from 1 to 32; anything else is a usage error (exit 2). */
function slices(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1 || n > 32)
    throw new InvalidArgumentError('must be a whole number from 1 to 32');
  return n;
}

function summaryLine(s: ObjectSyncSummary): string {
  if (s.busy) return `${s.kind}: another sync of this kind is running; nothing done`;
  return (
    `${s.kind}: ${s.read} read, ${s.posted} posted to the ERP, ${s.failed} failed, ${s.skipped} already known, ` +
    (s.nothingToSync ? `${s.nothingToSync} with nothing to sync, ` : '') +
    (s.unreadable ? `${s.unreadable} without a readable id, ` : '') +
    `${s.reported.items} reported in ${s.reported.batches} batches` +
    (s.vendorsCreated ? `, ${s.vendorsCreated} vendors created` : '') +
    ` (${(s.durationMs / 1000).toFixed(1)} s)`
  );
}

export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description(
      'mirror the chart of accounts (coa) or sync ready objects now; all = coa, then every kind side by side',
    )
    .argument('<what>', `one of: ${TARGETS.join(', ')}`, target)
    .option(
      '--slices <n>',
      'most cursors reading transactions at once (1-32); they split the backlog by date as they go',
      slices,
      SYNC_DEFAULTS.slices,
    )
    .option('--dry-run', 'show what would be uploaded, posted to the ERP and reported; write nothing')
    .addOption(
      new Option(
        '--via-worker',
        'do not run it here: queue the run for the worker (as a webhook would), print the job ids and exit',
      ).conflicts('dryRun'),
    )
    .option('--json', 'print the summary as JSON')
    .action(
      (what: Target, options: { slices: number; json?: boolean; dryRun?: boolean; viaWorker?: boolean }) =>
        withRuntime((runtime) =>
          withConnection(runtime, async (app, connectionId) => {
            if (options.viaWorker) return syncViaWorker(runtime, app, connectionId, what, options);
            const { sql, log } = runtime;
            const out = (line: string) => options.json || process.stdout.write(`${line}\n`);
            const results: unknown[] = [];
            let failures = 0;
            // What another process was running: nothing was done for it in this run.
            const skipped: string[] = [];
            // Kinds the platform stopped part-way (F43); the others still run.
            const stopped: KindFailure[] = [];
            // A kind the platform stopped part-way (F43) is told with what it had done by then (its
            // last progress); anything else is not a kind failure and is thrown.
            const stoppedEarly = (kind: string, error: unknown, done: ObjectSyncSummary | null): void => {
              const reason = kindFailureReason(error);
              if (reason === null) throw error;
              log.debug({ err: error, kind }, 'kind stopped early');
              stopped.push({ kind, reason });
              results.push({ kind, stopped: true, reason, ...(done ? { done } : {}) });
              const before = done
                ? ` after ${done.read} read, ${done.posted} posted, ${done.failed} failed`
                : '';
              out(`${kind}: stopped early${before}: ${reason}`);
            };
            const eachKind = async <T>(kind: string, work: () => Promise<T>): Promise<T | null> => {
              try {
                return await work();
              } catch (error) {
                stoppedEarly(kind, error, null);
                return null;
              }
            };
            if (what === 'coa' || what === 'all') {
              const mirror = await eachKind('coa', () =>
                recorded(sql, { connectionId, kind: 'coa', trigger: 'cli' }, () =>
                  mirrorChart(
                    { sql, erp: app.erp, platform: app.platform, connectionId, log },
                    { dryRun: options.dryRun === true },
                  ),
                ),
              );
              if (mirror) {
                results.push(mirror);
                if (mirror.busy) skipped.push('coa');
                const kinds = Object.entries(mirror.kinds);
                failures += kinds.reduce((n, [, k]) => n + k.failed.length, 0);
                if (mirror.busy) out('coa: another mirror of this connection is running; nothing done');
                else
                  out(
                    `coa${options.dryRun ? ' (dry run)' : ''}: ${kinds.map(([k, v]) => `${k} +${v.created} ~${v.updated} -${v.deactivated} !${v.failed.length}`).join(', ')} (${mirror.writeCalls} write calls)`,
                  );
              }
            }
            const kinds: ObjectKindName[] = what === 'all' ? [...OBJECT_KINDS] : what === 'coa' ? [] : [what];
            if (options.dryRun) {
              for (const kind of kinds) {
                const dry = await eachKind(kind, () =>
                  dryRunObjects({ sql, erp: app.erp, platform: app.syncPlatform, connectionId }, kind),
                );
                if (!dry) continue;
                results.push(dry);
                out(
                  `${kind} (dry run): ${dry.read} ready, would post ${dry.wouldPost} to the ERP, ${dry.wouldFail} would be reported failed, ${dry.alreadyKnown} already known, vendor creation for ${dry.wouldCreateVendorsFor}` +
                    (dry.erpChecked
                      ? ''
                      : ` (the ${app.erp.name} ERP cannot check writes without making them: its refusals are not foreseen)`),
                );
                for (const f of dry.sampleFailures) out(`  ${f.objectId}: ${f.message}`);
              }
            }
            // The kinds run side by side under the one rate budget (side-by-side.ts); their lines
            // are printed once all are done, in OBJECT_KINDS order, whichever finished first.
            const lastProgress = new Map<ObjectKindName, ObjectSyncSummary>();
            const progress = progressReporter(log);
            const settled = options.dryRun
              ? []
              : // A failure that is not a kind's (the database gone) ends the run at once (side-by-side.ts).
                await sideBySide(kinds, (kind) =>
                  recorded(sql, { connectionId, kind, trigger: 'cli' }, () =>
                    syncObjects(
                      {
                        sql,
                        erp: app.erp,
                        platform: app.syncPlatform,
                        connectionId,
                        log,
                        onProgress: (summary) => {
                          lastProgress.set(kind, summary);
                          progress.update(kind, summary);
                        },
                      },
                      kind,
                      { slices: options.slices, ...(kinds.length > 1 ? { joinable: false } : {}) },
                    ),
                  ),
                ).finally(() => progress.done());
            for (const [i, outcome] of settled.entries()) {
              const kind = kinds[i]!;
              // Only kind failures come back settled; any other ended the run above.
              if (outcome.status === 'rejected') {
                stoppedEarly(kind, outcome.reason, lastProgress.get(kind) ?? null);
                continue;
              }
              const summary = outcome.value;
              results.push(summary);
              if (summary.busy) skipped.push(kind);
              failures += summary.failed;
              out(summaryLine(summary));
            }
            if (options.json) process.stdout.write(`${JSON.stringify(results)}\n`);
            if (stopped.length > 0) {
              // README "Exit codes": 4 wins over 69 and 3. A kind the platform stopped needs a
              // look; a retry alone may meet the same answer.
              process.stderr.write(kindFailuresText(stopped));
              if (skipped.length > 0)
                process.stderr.write(
                  `ledgersync: also skipped ${skipped.join(', ')}: another process was already syncing.\n`,
                );
              return EXIT.kindStopped;
            }
            if (skipped.length > 0) {
              // README "Exit codes": 69 wins over 3, since part of the work was not done at all.
              const them = skipped.length === 1 ? 'it' : 'them';
              process.stderr.write(
                `ledgersync: skipped ${skipped.join(', ')}: another process was already syncing ${them}, ` +
                  `so nothing was done for ${them} in this run. Run the command again once that sync has finished.\n`,
              );
              return EXIT.unavailable;
            }
            return failures > 0 && !options.dryRun ? EXIT.partial : EXIT.ok;
          }),
        ),
    );
}
