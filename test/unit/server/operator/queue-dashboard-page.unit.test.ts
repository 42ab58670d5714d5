import type { Sql } from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import type { Queues } from '../../../../src/queue/index.ts';
import { buildServer } from '../../../../src/server/server.ts';

/** The dashboard's page over inject(): no queue, database or Redis is read to serve it. */
const app = buildServer(
  {
    sql: (() => Promise.resolve([])) as unknown as Sql,
    redis: { ping: async () => 'PONG' as const },
    queues: { all: () => [] } as unknown as Queues,
    connectionId: 'conn-1',
    log: silentLogger,
    secrets: async () => [],
    operator: {},
  },
  '127.0.0.1',
);
afterAll(() => app.close());

describe('queue dashboard page', () => {
  it('loads nothing from the internet: no external stylesheet, fonts only from the server itself', async () => {
    const page = await app.inject({ method: 'GET', url: '/admin/queues' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ledgersync queues');
    expect(page.body).not.toMatch(/href="https?:\/\//);
    expect(page.body).not.toContain('fonts.googleapis.com');
    expect(page.headers['content-security-policy']).toBe("font-src 'self' data:");
  });

  it('shows times in UTC, as the status page does', async () => {
    const page = await app.inject({ method: 'GET', url: '/admin/queues' });
    const config = page.body.match(/<script id="__UI_CONFIG__" type="application\/json">(.*?)<\/script>/s);
    const formats = JSON.parse(config![1]!).dateFormats as Record<string, Intl.DateTimeFormatOptions>;
    for (const name of ['short', 'common', 'full']) {
      expect(formats[name], name).toMatchObject({ timeZone: 'UTC', timeZoneName: 'short' });
    }
  });
});
