import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CLIENT, type RunningStub, startStub } from '@ledgersync/stub';
import { Queue } from 'bullmq';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, WORKER_MIGRATIONS } from '../../db/runner.ts';
import { importPlatformEntities } from '../../src/app/index.ts';
import { chartSummary, seedLedger } from '../../src/erp/index.ts';
import { createPlatformClient, type PlatformClient } from '../../src/platform/index.ts';
import { KIND_SPECS } from '../../src/sync/objects/index.ts';
import { waitFor } from '../integration/support.ts';
import { alive, startWorkerProcess, type WorkerProcess } from '../integration/worker-process.ts';
import { runCli } from '../support/cli.ts';
import { CLEAN_HISTORY, checkHistory } from '../support/history-check.ts';
import { useTestRedis } from '../support/redis.ts';
import { stubControl } from '../support/stub-control.ts';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.ts';

/**
 * `pg_ctl restart -m immediate` of PostgreSQL in the middle of a sync, through real processes
 * against a PostgreSQL server this file owns. postgres.js 3.4.x crashed the whole process when a
 * pinned connection (sql.reserve(), sql.begin()) was written to after its server went away:
 * `TypeError: Cannot read properties of null (reading 'write') at Immediate.nextWrite`
 * (docs/decisions.md "Kind locks on a connection of their own"). Now the CLI exits 69 (README
 * "Exit codes": a service it needs is unavailable) with one line, the worker stays up and takes
 * the next job once the database is back, and the history (read from the stub and the ERP) is
 * clean: nothing lost, nothing marked twice, books equal to platform marks.
 */

/** Every platform route waits this long, so a kind's run lasts seconds and the restart lands in it. */
const LATENCY_MS = 60;
/**
 * The run after an interrupted one waits out what the interrupted process left claimed: its
 * reader's range is taken over once it is a minute stale (STALE_READER_MS), its result batch once
 * its minute's lease lapses (RESULT_BATCH_LEASE_MS). So it lasts that minute plus its own work
 * (56 s in all seen on 2 cores), and is given the minute and as long again.
 */
const RUN_AFTER_INTERRUPTION_MS = 120_000;
const STACK_TRACE = /TypeError|ReferenceError|\n\s+at .+:\d+:\d+/;

let pg: PrivatePostgres;
beforeAll(async () => {
  pg = await startPrivatePostgres();
});
afterAll(async () => {
  await pg?.stop();
});

interface World {
  sql: Sql;
  redis: ReturnType<typeof useTestRedis>;
  schema: string;
  ledgerSchema: string;
  stub: RunningStub;
  platform: PlatformClient;
  connectionId: string;
  control: ReturnType<typeof stubControl>;
  env(): Record<string, string>;
  /** Seeds the stub and returns the ids of the objects ready to sync. */
  seed(seed: number): Promise<Set<string>>;
}

/** useSyncWorld, on the private server: worker schema, seeded ledger, a slow stub, a connection. */
function usePrivateWorld(name: string): World {
  const redis = useTestRedis();
  const world = { schema: `${name}_ls`, ledgerSchema: `${name}_ledger`, redis } as World;
  beforeAll(async () => {
    world.sql = postgres(pg.url, { max: 4, onnotice: () => {}, connection: { search_path: world.schema } });
    await migrate(world.sql, { schema: world.schema, dir: WORKER_MIGRATIONS });
    await seedLedger(world.sql, world.ledgerSchema, { preset: 'small', seed: 3 });
    world.stub = await startStub({ rateLimit: false, latencyMs: LATENCY_MS });
    world.control = stubControl(() => world.stub.url);
    world.platform = createPlatformClient({
      baseUrl: world.stub.apiUrl,
      clientId: DEFAULT_CLIENT.client_id,
      clientSecret: DEFAULT_CLIENT.client_secret,
      scopes:
        'accounting:read accounting:write transactions:read reimbursements:read transfers:read cashbacks:read bills:read entities:read',
      redis: redis.connect(),
      keyPrefix: redis.prefix,
    });
    const connection = await world.platform.connection.create({
      remote_provider_name: 'Built-in ledger',
      is_active: true,
      settings: { transaction_accounting_vendor_creation_on_sync_enabled: true },
    });
    world.connectionId = connection.id;
  });
  afterAll(async () => {
    await world.platform?.close();
    await world.stub?.close();
    await world.sql?.end({ timeout: 5 });
  });
  world.env = () => ({
    PLATFORM_BASE_URL: world.stub.apiUrl,
    PLATFORM_CLIENT_ID: DEFAULT_CLIENT.client_id,
    PLATFORM_CLIENT_SECRET: DEFAULT_CLIENT.client_secret,
    PLATFORM_CONNECTION_ID: world.connectionId,
    DATABASE_URL: pg.url,
    DATABASE_SCHEMA: world.schema,
    LEDGER_SCHEMA: world.ledgerSchema,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
  });
  world.seed = async (seed) => {
    const chart = await chartSummary(world.sql, world.ledgerSchema);
    const { gl_accounts, vendors, tax_codes } = chart;
    const fields = chart.fields.map((f) => ({ id: f.id, options: f.options }));
    await world.control('POST', '/__stub/seed', {
      chart: { gl_accounts, vendors, tax_codes, fields },
      seed,
      transactions: 400,
      reimbursements: 20,
      transfers: 8,
      cashbacks: 8,
      bills: 30,
      ready_fraction: 1,
    });
    const entities = await world.platform.entities.list().collect();
    await importPlatformEntities(world.sql, world.ledgerSchema, entities.values);
    const ready = new Set<string>();
    const o = world.platform.objects;
    for (const listing of [
      o.ready(KIND_SPECS.transactions.list),
      o.ready(KIND_SPECS.reimbursements.list),
      o.ready(KIND_SPECS.transfers.list),
      o.ready(KIND_SPECS.cashbacks.list),
      o.ready(KIND_SPECS.bills.list),
    ]) {
      for await (const item of listing) if (item.ok) ready.add(item.value.id);
    }
    return ready;
  };
  return world;
}

/**
 * Waits until a run of `kind` has started and holds its kind lock, then a little longer; `gone`
 * says why the process that should be running it is not (it ended early).
 */
async function midRunOf(world: World, kind: string, gone: () => string | null): Promise<void> {
  await waitFor(
    async () => {
      const why = gone();
      if (why) throw new Error(why);
      const [row] = await world.sql<{ running: boolean; locked: boolean }[]>`
        select exists (select 1 from runs where kind = ${kind} and status = 'running') as running,
               exists (select 1 from pg_locks where locktype = 'advisory' and granted) as locked`;
      return row?.running && row.locked;
    },
    { what: `a ${kind} run holding its lock`, timeoutMs: 30_000, intervalMs: 25 },
  );
  await new Promise((resolve) => setTimeout(resolve, 400));
}

async function expectCleanHistory(world: World, readyAtStart: Set<string>): Promise<void> {
  const report = await checkHistory({
    control: world.control,
    sql: world.sql,
    ledgerSchema: world.ledgerSchema,
    readyAtStart,
  });
  expect(report).toEqual(CLEAN_HISTORY);
}

describe('ledgersync sync all while PostgreSQL restarts', () => {
  const world = usePrivateWorld('cli');

  // The interrupted run (seconds), the run after it and a history check.
  const timeout = RUN_AFTER_INTERRUPTION_MS + 90_000;
  it('exits 69 with one line (no TypeError), the next run completes, and the history is clean', {
    timeout,
  }, async () => {
    const readyAtStart = await world.seed(71);
    expect(readyAtStart.size).toBeGreaterThan(400);

    let ended: string | null = null;
    const running = runCli(['sync', 'all', '--json'], world.env(), 60_000).then((result) => {
      ended = `the CLI ended before the restart: ${result.code}\n${result.stderr.slice(-2000)}\n${result.stdout.slice(-2000)}`;
      return result;
    });
    await midRunOf(world, 'transactions', () => ended);
    await pg.restartImmediate();
    const interrupted = await running;

    expect(interrupted.stderr).not.toMatch(STACK_TRACE);
    expect(interrupted.code, interrupted.stderr.slice(-2000)).toBe(69);
    const lines = interrupted.stderr.split('\n').filter((line) => line.startsWith('ledgersync:'));
    expect(lines, interrupted.stderr.slice(-2000)).toHaveLength(1);
    expect(lines[0]).toMatch(/PostgreSQL/);

    const again = await runCli(['sync', 'all', '--json'], world.env(), RUN_AFTER_INTERRUPTION_MS);
    expect([0, 3], again.stderr.slice(-2000)).toContain(again.code);
    await expectCleanHistory(world, readyAtStart);
  });
});

describe('ledgersync worker while PostgreSQL restarts', () => {
  const world = usePrivateWorld('worker');
  let worker: WorkerProcess | undefined;
  let queue: Queue | undefined;

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await queue?.close();
  });

  it('stays up (same pid), the job running at the restart fails or retries, the next job completes; clean history', async () => {
    const readyAtStart = await world.seed(72);
    const env = world.env();
    queue = new Queue('object-sync', { connection: { url: world.redis.url }, prefix: world.redis.prefix });
    worker = startWorkerProcess(['--no-server', '--no-schedules'], env);
    const pid = worker.pid;
    await worker.waitForLine(/ledgersync worker running: workers/);

    const payload = { connectionId: world.connectionId, kind: 'transactions', trigger: 'cli' };
    const first = await queue.add('sync', payload);
    await midRunOf(world, 'transactions', () =>
      worker?.child.exitCode === null ? null : `the worker exited:\n${worker?.output().slice(-3000)}`,
    );
    await pg.restartImmediate();

    const firstState = await waitFor(
      async () => {
        if (worker?.child.exitCode !== null)
          throw new Error(`the worker exited:\n${worker?.output().slice(-3000)}`);
        const state = await first.getState();
        return ['failed', 'delayed', 'completed'].includes(state) ? state : null;
      },
      { what: 'the job running at the restart to end', timeoutMs: 30_000 },
    );
    expect(['failed', 'delayed'], worker.output().slice(-3000)).toContain(firstState);
    expect(worker.child.exitCode, worker.output().slice(-3000)).toBeNull();
    expect(alive(pid)).toBe(true);

    const next = await queue.add('sync', payload);
    await waitFor(async () => ['completed', 'failed'].includes(await next.getState()), {
      what: 'the job enqueued after the restart to end',
      timeoutMs: 30_000,
    });
    expect(await next.getState(), worker.output().slice(-3000)).toBe('completed');
    expect((await queue.getJob(next.id!))?.returnvalue).toMatchObject({ outcome: 'synced' });
    expect(worker.child.exitCode).toBeNull();
    expect(worker.pid).toBe(pid);
    expect(worker.output()).not.toMatch(STACK_TRACE);

    expect(await worker.stop('SIGTERM')).toBe(0);
    // The failed job's retry waits out its backoff: a clean run finishes what it left.
    const clean = await runCli(['sync', 'all', '--json'], env, 60_000);
    expect([0, 3], clean.stderr.slice(-2000)).toContain(clean.code);
    await expectCleanHistory(world, readyAtStart);
  });
});

describe('a transaction open when PostgreSQL restarts', () => {
  const redis = useTestRedis();
  const CHILD = fileURLToPath(new URL('./transaction-child.ts', import.meta.url));

  it('the caller gets CONNECTION_CLOSED, in flight or idle, and the process lives on to query again', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx/esm', CHILD], {
      env: {
        ...process.env,
        DATABASE_URL: pg.url,
        REDIS_URL: redis.url,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const line = (text: string) =>
        waitFor(
          () => {
            if (child.exitCode !== null) throw new Error(`the child exited ${child.exitCode}:\n${output}`);
            return output.includes(text);
          },
          { what: `${text} in:\n${output}`, timeoutMs: 30_000 },
        );
      await line('open in-flight');
      await pg.restartImmediate();
      await line('in-flight: rejected CONNECTION_CLOSED');
      child.stdin.write('next\n');
      await line('open idle');
      await pg.restartImmediate();
      await line('idle: rejected CONNECTION_CLOSED');
      child.stdin.write('go\n');
      expect(await exited, output).toBe(0);
      expect(output).toContain('after: 1');
      expect(output).not.toMatch(STACK_TRACE);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
