import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Command } from 'commander';
import { Redis } from 'ioredis';
import { migrateAll } from '../../db/runner.ts';
import { withRuntime } from './runtime.ts';

/**
 * The single command a newcomer runs to see ledgersync work, on embedded defaults: it brings up
 * PostgreSQL and Redis, migrates, and runs the main job end to end.
 */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('run the main job end to end on embedded defaults (no setup needed)')
    .action(() =>
      withRuntime(async ({ sql, config, log, services }) => {
        const say = (line: string) => process.stdout.write(`${line}\n`);
        say(`PostgreSQL: ${services.databaseUrl.replace(/:[^:@/]+@/, ':***@')}`);
        say(`Redis:      ${services.redisUrl}`);
        const { applied } = await migrateAll(sql, {
          schema: config.DATABASE_SCHEMA,
          ledgerSchema: config.ERP === 'ledger' ? config.LEDGER_SCHEMA : undefined,
          log,
        });
        say(`Migrations: ${applied.length ? applied.join(', ') : 'up to date'}`);
        const roundTrip = await queueRoundTrip(services.redisUrl, config.QUEUE_PREFIX);
        say(`Queue:      one job enqueued and processed in ${roundTrip} ms`);
        return 0;
      }),
    );
}

async function queueRoundTrip(redisUrl: string, prefix: string): Promise<number> {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const name = 'demo-ping';
  const queue = new Queue(name, { connection, prefix });
  const events = new QueueEvents(name, { connection: connection.duplicate(), prefix });
  const worker = new Worker(name, async (job) => ({ pong: job.data.ping }), { connection, prefix });
  try {
    await events.waitUntilReady();
    const started = Date.now();
    const job = await queue.add('ping', { ping: 1 }, { removeOnComplete: true });
    await job.waitUntilFinished(events, 10_000);
    return Date.now() - started;
  } finally {
    await worker.close();
    await events.close();
    await queue.close();
    connection.disconnect();
  }
}
