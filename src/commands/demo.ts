import type { Command } from 'commander';
import { Redis } from 'ioredis';
import postgres, { type Sql } from 'postgres';
import { migrate, WORKER_MIGRATIONS } from '../../db/runner.ts';
import { createErp, trialBalance, trialBalanceTotals } from '../erp/index.ts';
import { EXIT } from '../exit-codes.ts';
import type { Logger } from '../log.ts';
import { createPlatformClient } from '../platform/index.ts';
import { mirrorChart } from '../sync/mirror/index.ts';
import { OBJECT_KINDS, syncObjects, syncPlatformFrom } from '../sync/objects/index.ts';
import { OutboxIdempotencyRecords } from '../sync/reporting/index.ts';
import { failureMessagesByFrequency } from '../sync/sync-ledger/index.ts';
import { type DemoSummary, failureLines } from './demo-summary.ts';
import { withRuntime } from './runtime.ts';
import { loadStubOrExit } from './stub.ts';
import { setUpStubWorld } from './stub-world.ts';

const DEMO_SCHEMA = 'ledgersync_demo';
const DEMO_LEDGER = 'ledger_demo';
/** Where a newcomer goes from here: the same world, synced by commands of their own shell. */
const NEXT_STEP =
  'Next       `npx ledgersync try` keeps a stub with this world running and points your shell at it (README "Run it against the stub yourself")';

/** A fresh demo every run: its own two schemas, dropped and rebuilt. */
async function freshSchemas(sql: Sql, log: Logger): Promise<void> {
  await sql`drop schema if exists ${sql(DEMO_SCHEMA)} cascade`;
  await sql`drop schema if exists ${sql(DEMO_LEDGER)} cascade`;
  await migrate(sql, { schema: DEMO_SCHEMA, dir: WORKER_MIGRATIONS, log });
}

/**
 * The single command a newcomer runs to see ledgersync work, on embedded defaults and the
 * built-in platform stub: chart of accounts mirrored, every kind of ready object synced into the
 * built-in ERP and reported back, and the books checked. It exits 0 when the books balance
 * (1 when they do not): the failures it lists are seeded on purpose. With --json the progress
 * lines go to stderr and stdout holds one JSON document, the summary (src/commands/demo-summary.ts).
 */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'run the main job end to end on embedded defaults and the built-in platform (no setup needed)',
    )
    .option('--json', 'print the summary as one JSON document (progress goes to stderr)')
    .action(async (options: { json?: boolean }) => {
      const { DEFAULT_CLIENT, startStub } = await loadStubOrExit();
      return withRuntime(async ({ sql, config, log, services }) => {
        const out = options.json ? process.stderr : process.stdout;
        const say = (line: string) => out.write(`${line}\n`);
        say(`PostgreSQL ${services.databaseUrl.replace(/:[^:@/]+@/, ':***@')}, Redis ${services.redisUrl}`);
        await freshSchemas(sql, log);
        const stub = await startStub({ log });
        const redis = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
        const erp = createErp({ kind: 'ledger', sql, schema: DEMO_LEDGER }, { log });
        // The sync code uses unqualified table names: this pool's search_path is the demo's schema.
        const workerSql = postgres(services.databaseUrl, {
          max: 6,
          onnotice: () => {},
          connection: { search_path: DEMO_SCHEMA },
        });
        const platform = createPlatformClient({
          baseUrl: stub.apiUrl,
          clientId: DEFAULT_CLIENT.client_id,
          clientSecret: DEFAULT_CLIENT.client_secret,
          scopes: config.PLATFORM_SCOPES,
          redis,
          keyPrefix: `${config.QUEUE_PREFIX}:demo:${Date.now()}`,
          idempotency: new OutboxIdempotencyRecords(workerSql, stub.apiUrl),
          log,
        });
        try {
          say(`Platform   built-in stub at ${stub.apiUrl}`);
          const world = await setUpStubWorld({
            sql,
            ledgerSchema: DEMO_LEDGER,
            platform,
            stubUrl: stub.url,
            log,
            provider: 'ledgersync built-in ledger',
            settings: { transaction_accounting_vendor_creation_on_sync_enabled: true },
          });
          const counts = world.ledger;
          say(
            `ERP        built-in (ERP=ledger): ${counts.accounts} GL accounts, ${counts.options} field options, ${counts.vendors} vendors`,
          );
          const mirror = await mirrorChart({
            sql: workerSql,
            erp,
            platform,
            connectionId: world.connectionId,
            log,
          });
          say(
            `Mirror     ${Object.entries(mirror.kinds)
              .map(([k, s]) => `${s.created} ${k}`)
              .join(', ')} uploaded (${mirror.writeCalls} calls)`,
          );
          const { ready } = world;
          const kinds: DemoSummary['kinds'] = [];
          say(
            `Ready      ${Object.entries(ready)
              .map(([k, n]) => `${n} ${k}`)
              .join(', ')}`,
          );
          let failed = 0;
          for (const kind of OBJECT_KINDS) {
            const s = await syncObjects(
              {
                sql: workerSql,
                erp,
                platform: syncPlatformFrom(platform),
                connectionId: world.connectionId,
                log,
              },
              kind,
              { slices: 2 },
            );
            failed += s.failed;
            kinds.push({
              kind,
              posted: s.posted,
              failed: s.failed,
              reported: s.reported.items,
              vendorsCreated: s.vendorsCreated,
            });
            say(
              `Sync       ${kind}: ${s.posted} posted to the built-in ERP, ${s.failed} failed with a reason, ${s.reported.items} results reported${s.vendorsCreated ? `, ${s.vendorsCreated} vendors created` : ''}`,
            );
          }
          const totals = trialBalanceTotals(await trialBalance(sql, DEMO_LEDGER));
          const balanced = [...totals.values()].every((t) => t === 0);
          say(
            `Books      trial balance ${balanced ? 'is zero in every currency' : 'DOES NOT BALANCE'} (${[...totals.keys()].join(', ')})`,
          );
          const failures = {
            total: failed,
            reasons: failed > 0 ? await failureMessagesByFrequency(workerSql) : [],
          };
          for (const line of failureLines(failures)) say(line);
          say(NEXT_STEP);
          if (options.json) {
            const summary: DemoSummary = {
              platform: stub.apiUrl,
              erp: { accounts: counts.accounts, options: counts.options, vendors: counts.vendors },
              mirror: Object.fromEntries(Object.entries(mirror.kinds).map(([k, m]) => [k, m.created])),
              ready,
              kinds,
              books: { balanced, currencies: [...totals.keys()] },
              failures,
            };
            process.stdout.write(`${JSON.stringify(summary)}\n`);
          }
          return balanced ? EXIT.ok : EXIT.failed;
        } finally {
          await workerSql.end();
          await erp.close();
          await platform.close();
          await redis.quit().catch(() => redis.disconnect());
          await stub.close();
        }
      });
    });
}
