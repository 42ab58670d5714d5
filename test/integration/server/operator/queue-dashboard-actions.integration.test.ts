import { request } from 'node:http';
import { type Job, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { bullConnection, createQueues, QUEUE_NAMES, type Queues } from '../../../../src/queue/index.ts';
import { type RunningServer, startServer } from '../../../../src/server/server.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { useTestRedis } from '../../../support/redis.ts';

/**
 * Bull Board behind the operator token (docs/operations.md "Queue dashboard"), over real HTTP and
 * real Redis: the operator reads everything and retries failed jobs; obliterate, empty, clean,
 * add, promote, pause and concurrency changes are refused and change nothing.
 */
const db = useTestDatabase();
const redis = useTestRedis();
const TOKEN = 'op-token-dashboard-tests-0123456789';
const QUEUE = QUEUE_NAMES.objectSync;
let queues: Queues;
let server: RunningServer;
/** The same queues without OPERATOR_TOKEN on loopback (open mode). */
let openServer: RunningServer;
const jobs: { failed: Job[]; completed: Job; delayed: Job } = {} as never;

beforeAll(async () => {
  queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
  // Two jobs fail and one completes on a real worker, which then stops; one waits delayed.
  const worker = new Worker(
    QUEUE,
    async (job) => {
      if (job.name === 'fail') throw new Error('the ERP did not answer');
      return { ok: true };
    },
    { connection: bullConnection(redis.url), prefix: redis.prefix, autorun: false },
  );
  const settled = new Promise<void>((resolve) => {
    let finished = 0;
    const done = () => {
      if (++finished === 3) resolve();
    };
    worker.on('completed', done);
    worker.on('failed', done);
  });
  const failed = [
    await queues.objectSync.add('fail', { n: 1 }, { attempts: 1 }),
    await queues.objectSync.add('fail', { n: 2 }, { attempts: 1 }),
  ];
  const completed = await queues.objectSync.add('ok', { n: 3 });
  void worker.run();
  await settled;
  await worker.close();
  jobs.failed = failed;
  jobs.completed = completed;
  jobs.delayed = await queues.objectSync.add('later', { n: 4 }, { delay: 3_600_000 });
  server = await startServer(
    {
      sql: db.sql,
      redis: redis.connect(),
      queues,
      connectionId: 'conn-dashboard',
      log: silentLogger,
      secrets: async () => ['whsec_dashboard_tests'],
      operator: { token: TOKEN },
    },
    { host: '127.0.0.1', port: 0 },
  );
  openServer = await startServer(
    {
      sql: db.sql,
      redis: redis.connect(),
      queues,
      connectionId: 'conn-dashboard',
      log: silentLogger,
      secrets: async () => ['whsec_dashboard_tests'],
      operator: {},
    },
    { host: '127.0.0.1', port: 0 },
  );
}, 60_000);

afterAll(async () => {
  await openServer?.close();
  await server?.close();
  await queues?.close();
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}/admin/queues/api/queues${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A request with the Host header a browser sends for `host` (fetch cannot set it). */
function withHost(method: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${openServer.url}${path}`, { method, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

const counts = () => queues.objectSync.getJobCounts('failed', 'completed', 'delayed', 'waiting');

describe('queue dashboard actions', () => {
  it('reads: the queue list, a job and its logs', async () => {
    const list = await api('GET', '');
    expect(list.status).toBe(200);
    const body = (await list.json()) as {
      queues: { name: string; readOnlyMode: boolean; allowRetries: boolean }[];
    };
    expect(body.queues.find((q) => q.name === QUEUE)).toMatchObject({
      readOnlyMode: false,
      allowRetries: true,
    });
    expect((await api('GET', `/${QUEUE}/${jobs.failed[0]!.id}`)).status).toBe(200);
    expect((await api('GET', `/${QUEUE}/${jobs.failed[0]!.id}/logs`)).status).toBe(200);
  });

  it('obliterate, empty, clean, add, promote, pause and concurrency are refused and change nothing', async () => {
    const before = await counts();
    expect(before).toMatchObject({ failed: 2, completed: 1, delayed: 1 });
    const refused: [string, string, unknown?][] = [
      ['PUT', `/${QUEUE}/obliterate`, { force: true }],
      ['PUT', `/${QUEUE}/empty`],
      ['PUT', `/${QUEUE}/clean/completed`],
      ['PUT', `/${QUEUE}/clean/failed`],
      ['PUT', `/${QUEUE}/${jobs.completed.id}/clean`],
      ['POST', `/${QUEUE}/add`, { name: 'sync', data: { connectionId: 'x', kind: 'bills', trigger: 'cli' } }],
      ['PATCH', `/${QUEUE}/${jobs.delayed.id}/update-data`, { data: { n: 5 } }],
      ['PUT', `/${QUEUE}/${jobs.delayed.id}/promote`],
      ['PUT', `/${QUEUE}/promote`],
      ['PUT', `/${QUEUE}/pause`],
      ['PUT', '/pause'],
      ['PUT', `/${QUEUE}/concurrency`, { concurrency: 1 }],
      ['PUT', `/${QUEUE}/rate-limit`, { max: 1, duration: 1000 }],
      // Retrying what completed re-runs work that succeeded.
      ['PUT', `/${QUEUE}/${jobs.completed.id}/retry`],
      ['PUT', `/${QUEUE}/retry/completed`],
    ];
    for (const [method, path, body] of refused) {
      const response = await api(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await response.text(), `${method} ${path}`).toContain('only reading and retrying failed jobs');
    }
    expect(await counts()).toEqual(before);
    expect(await queues.objectSync.isPaused()).toBe(false);
    expect(await queues.objectSync.getGlobalConcurrency()).toBeNull();
    expect((await queues.objectSync.getJob(jobs.delayed.id!))?.data).toEqual({ n: 4 });
  });

  it('open mode: a page naming another host (DNS rebinding) reads nothing and retries nothing', async () => {
    const before = await counts();
    expect(before).toMatchObject({ failed: 2 });
    const host = 'evil.example:8080';
    const refused: [string, string][] = [
      ['GET', '/status'],
      ['GET', '/status.json'],
      ['GET', '/admin/queues/api/queues'],
      ['GET', `/admin/queues/api/queues/${QUEUE}/${jobs.failed[0]!.id}`],
      ['PUT', `/admin/queues/api/queues/${QUEUE}/${jobs.failed[0]!.id}/retry`],
      ['PUT', `/admin/queues/api/queues/${QUEUE}/retry/failed`],
    ];
    for (const [method, path] of refused) {
      const response = await withHost(method, path, host);
      expect(response.status, `${method} ${path}`).toBe(421);
      expect(response.body, path).toMatch(/^Misdirected request: /);
      expect(response.body, path).not.toContain(QUEUE);
      expect(response.body, path).not.toContain('the ERP did not answer');
    }
    expect(await counts()).toEqual(before);
    expect(await queues.objectSync.getJobState(jobs.failed[0]!.id!)).toBe('failed');
  });

  it('open mode: 127.0.0.1, localhost and [::1], with the port, are served', async () => {
    const port = new URL(openServer.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const api = await withHost('GET', '/admin/queues/api/queues', host);
      expect(api.status, host).toBe(200);
      expect(api.body, host).toContain(QUEUE);
      expect((await withHost('GET', '/status.json', host)).status, host).toBe(200);
    }
  });

  it('a failed job can be retried, one or all', async () => {
    const one = await api('PUT', `/${QUEUE}/${jobs.failed[0]!.id}/retry`);
    expect(one.status).toBe(204);
    expect(await queues.objectSync.getJobState(jobs.failed[0]!.id!)).toBe('waiting');
    const all = await api('PUT', `/${QUEUE}/retry/failed`);
    expect(all.status).toBe(200);
    expect(await all.json()).toMatchObject({ retried: 1 });
    expect(await counts()).toMatchObject({ failed: 0, waiting: 2, completed: 1, delayed: 1 });
  });
});
