import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../src/infra/index.ts';
import type { StatusReport } from '../../../../src/operations/index.ts';
import { runCli } from '../../../support/cli.ts';
import { skewedClockEnv } from '../../../support/faketime.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../../support/sync-world.ts';
import { waitFor } from '../../support.ts';
import { startWorkerProcess, type WorkerProcess } from '../../worker-process.ts';
import { stubMarks } from './button-rig.ts';

/**
 * docs/platform.md G28 and G29 with a worker host whose clock is 90 s behind: two real
 * `ledgersync worker` processes, one in step (jobs only), one under libfaketime 90 s behind
 * (jobs and the webhook receiver, so it accepts every press). Every time a press is compared
 * with comes from the database's clock, so its deadline is the platform's and its rows are its
 * own; `status` counts both workers by Redis's clock and names the one whose clock is off.
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
let inStep: WorkerProcess | undefined;
let behind: WorkerProcess | undefined;
let env: Record<string, string>;

interface StubRequest {
  sync_request_id: string;
  object_ids: string[];
  created_at: string;
  deadline: string;
  expired_rows: number;
}

beforeAll(async () => {
  const skew = skewedClockEnv('-90s');
  await world.seed({
    seed: 47,
    transactions: 400,
    reimbursements: 0,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
  env = {
    ...worldEnv(world, redis),
    PLATFORM_CONNECTION_ID: world.connectionId,
    // No scheduled run during the test: the presses are the only work.
    SCHEDULE_OBJECT_SYNC_WEEKDAYS: '0 0 1 1 *',
    SCHEDULE_OBJECT_SYNC_WEEKENDS: '0 0 1 1 *',
    SCHEDULE_COA_MIRROR: '0 0 1 1 *',
  };
  const port = await freePort();
  inStep = startWorkerProcess(['--no-server'], env);
  behind = startWorkerProcess([], {
    ...env,
    ...skew,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(port),
    WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${port}/webhooks`,
  });
  await inStep.waitForLine(/ledgersync worker running/);
  await behind.waitForLine(/ledgersync worker running: .*server/);
  await waitFor(
    async () => (await world.db.sql`select 1 from webhook_subscriptions where status = 'active'`).length > 0,
    { timeoutMs: 30_000, what: 'the skewed worker to register its subscription' },
  );
}, 120_000);

afterAll(async () => {
  await behind?.stop('SIGKILL');
  await inStep?.stop('SIGKILL');
});

async function press(limit: number): Promise<{ id: string; objectIds: string[] }> {
  const pressed = await world.control<{ sync_request_id: string; object_ids: string[] }>(
    'POST',
    '/__stub/sync-button',
    { object_type: 'TRANSACTION', limit },
  );
  expect(pressed.object_ids).toHaveLength(limit);
  return { id: pressed.sync_request_id, objectIds: pressed.object_ids };
}

async function answered(id: string): Promise<void> {
  await waitFor(
    async () => {
      const [row] = await world.db.sql<{ state: string }[]>`
        select state from sync_requests where sync_request_id = ${id}`;
      return row?.state === 'ANSWERED';
    },
    { timeoutMs: 45_000, what: `sync request ${id} to be answered` },
  ).catch((error: unknown) => {
    throw new Error(
      `${String(error)}\nin step:\n${inStep?.output().slice(-1500)}\nbehind:\n${behind?.output().slice(-1500)}`,
    );
  });
}

describe('a worker whose clock is 90 s behind', () => {
  it('G29: presses it accepts get the platform deadline, their rows are answered under their own id, none expires', async () => {
    // Two presses in a row: the second is pressed after the first's run read the requested rows,
    // the reading that a press time from a clock 90 s behind would place before that read.
    const presses = [];
    for (let i = 0; i < 2; i++) {
      const pressed = await press(80);
      await answered(pressed.id);
      presses.push(pressed);
    }
    const marks = await stubMarks(world);
    for (const { id, objectIds } of presses) {
      const stub = await world.control<StubRequest>('GET', `/__stub/sync-requests/${id}`);
      const [row] = await world.db.sql<{ requested_at: Date; deadline: Date; watchdog_failed: number }[]>`
        select requested_at, deadline, watchdog_failed from sync_requests where sync_request_id = ${id}`;
      // The platform's deadline (created_at + 5 minutes), not 90 s before it.
      expect(Math.abs(row!.deadline.getTime() - Date.parse(stub.deadline))).toBeLessThan(1_000);
      expect(Math.abs(row!.requested_at.getTime() - Date.parse(stub.created_at))).toBeLessThan(1_000);
      expect(row!.watchdog_failed).toBe(0);
      // Every requested row has a result under this request's id (the run did not answer `rows: 0`).
      const answeredIds = new Set(marks.filter((m) => m.sync_request_id === id).map((m) => m.object_id));
      expect(objectIds.filter((o) => !answeredIds.has(o))).toEqual([]);
      expect(stub.expired_rows).toBe(0);
    }
    // Past both windows on the platform's clock: nothing was left to expire.
    await world.control('POST', '/__stub/clock', { advance_ms: 6 * 60_000 });
    for (const { id } of presses) {
      expect((await world.control<StubRequest>('GET', `/__stub/sync-requests/${id}`)).expired_rows).toBe(0);
    }
  }, 120_000);

  it('status counts both workers and names the one whose clock is behind (text and --json)', async () => {
    const warning =
      /Worker [^ ]+:(\d+)'s clock is (89|90|91) s behind Redis's: sync-button deadlines use the database's clock, but fix the time sync \(NTP\) on that host/;
    const json = await runCli(['status', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as StatusReport;
    const workers = report.health.workers;
    expect(workers.map((w) => w.pid).sort()).toEqual([inStep!.pid, behind!.pid].sort());
    const skews = Object.fromEntries(workers.map((w) => [w.pid, w.clockSkewSeconds]));
    expect(Math.abs(skews[inStep!.pid]!)).toBeLessThanOrEqual(1);
    expect(Math.abs(skews[behind!.pid]! + 90)).toBeLessThanOrEqual(1);
    const finding = report.health.findings.map((f) => f.match(warning)).find(Boolean);
    expect(finding?.[1]).toBe(String(behind!.pid));

    const text = await runCli(['status'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(warning);
    const lines = text.stdout.split('\n').filter((l) => l.startsWith('  worker '));
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.includes(`:${behind!.pid} `))).toMatch(/clock (89|90|91) s behind Redis/);
    expect(lines.find((l) => l.includes(`:${inStep!.pid} `))).toContain('clock in step');
  }, 60_000);
});
