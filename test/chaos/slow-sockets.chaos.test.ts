import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { createQueues, type Queues } from '../../src/queue/index.ts';
import { type RunningServer, SERVER_TIMEOUTS, startServer } from '../../src/server/index.ts';
import { sign } from '../integration/support.ts';
import { useTestDatabase } from '../support/db.ts';
import { useTestRedis } from '../support/redis.ts';

/**
 * A slow-socket flood on the worker's HTTP server (loopback): 50 connections that open and send
 * part of a request, then stall, must be closed within the server's bounds while a real webhook
 * delivery is still answered. Every socket is destroyed by the test at the end, whatever happens.
 */
const db = useTestDatabase();
const redis = useTestRedis();
const SECRET = 'whsec_slow_sockets_0123456789';
let queues: Queues;
let server: RunningServer;

beforeAll(async () => {
  queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
  server = await startServer(
    {
      sql: db.sql,
      redis: redis.connect(),
      queues,
      connectionId: 'conn-slow-sockets',
      log: silentLogger,
      secrets: async () => [SECRET],
    },
    { host: '127.0.0.1', port: 0 },
  );
});

afterAll(async () => {
  await server?.close();
  await queues?.close();
});

interface Stalled {
  socket: Socket;
  opened: number;
  /** ms after opening when the server closed it; null while open. */
  closedAfter: number | null;
  /** What the server answered before closing, if anything (a 408). */
  answer: string;
}

function stall(port: number, send: string): Promise<Stalled> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const entry: Stalled = { socket, opened: Date.now(), closedAfter: null, answer: '' };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      entry.answer += chunk;
    });
    socket.on('error', () => undefined); // a reset by the server is a close too
    socket.on('close', () => {
      entry.closedAfter = Date.now() - entry.opened;
    });
    socket.once('connect', () => {
      if (send) socket.write(send);
      resolve(entry);
    });
    socket.once('error', reject);
  });
}

async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

const port = () => Number(new URL(server.url).port);

describe('slow and idle sockets on the worker server', () => {
  it('50 stalled requests are closed within the bounds while a webhook delivery is answered', async () => {
    const partialHeaders = 'POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n';
    const partialBody =
      'POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id":';
    const flood: { kind: 'nothing' | 'headers' | 'body'; entry: Stalled }[] = [];
    try {
      for (let i = 0; i < 50; i++) {
        const kind = i % 5 === 0 ? 'nothing' : i % 5 < 3 ? 'headers' : 'body';
        const send = kind === 'nothing' ? '' : kind === 'headers' ? partialHeaders : partialBody;
        flood.push({ kind, entry: await stall(port(), send) });
      }

      // While the flood holds its sockets, a real delivery is answered at once.
      const body = JSON.stringify({
        id: `evt-${randomUUID()}`,
        type: 'bills.paid',
        created_at: new Date().toISOString(),
        object: { id: 'bill-1' },
      });
      const started = Date.now();
      const response = await fetch(`${server.url}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-webhook-signature': sign(body, SECRET) },
        body,
        signal: AbortSignal.timeout(5_000),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'accepted' });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(flood.every((f) => f.entry.closedAfter === null)).toBe(true);

      // Slack over each bound: the server's check interval, plus 2 s for a busy shared machine.
      const slack = SERVER_TIMEOUTS.checkEveryMs + 2_000;
      const headerBound = SERVER_TIMEOUTS.headersTimeoutMs + slack;
      const requestBound = SERVER_TIMEOUTS.requestTimeoutMs + slack;
      await until(() => flood.every((f) => f.entry.closedAfter !== null), requestBound + 1_000);
      for (const { kind, entry } of flood) {
        expect(entry.closedAfter, `${kind} socket still open`).not.toBeNull();
        const bound = kind === 'body' ? requestBound : headerBound;
        expect(entry.closedAfter!, kind).toBeLessThanOrEqual(bound);
        if (kind !== 'nothing') expect(entry.answer, kind).toMatch(/^HTTP\/1\.1 408 |^$/);
      }
    } finally {
      for (const { entry } of flood) entry.socket.destroy();
    }
  }, 40_000);

  it('an idle kept-alive connection is closed after the keep-alive bound', async () => {
    const entry = await stall(port(), 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    try {
      await until(() => entry.answer.includes('\r\n\r\n'), 5_000);
      expect(entry.answer).toMatch(/^HTTP\/1\.1 200 /);
      const answeredAt = Date.now() - entry.opened;
      await until(() => entry.closedAfter !== null, SERVER_TIMEOUTS.keepAliveTimeoutMs + 3_000);
      expect(entry.closedAfter).not.toBeNull();
      expect(entry.closedAfter! - answeredAt).toBeLessThanOrEqual(SERVER_TIMEOUTS.keepAliveTimeoutMs + 2_000);
    } finally {
      entry.socket.destroy();
    }
  }, 20_000);

  it('a body above the limit is refused with 413', async () => {
    const response = await fetch(`${server.url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(300 * 1024),
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(413);
  });
});
