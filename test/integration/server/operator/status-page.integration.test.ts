import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { createQueues, enqueueMigration } from '../../../../src/queue/index.ts';
import { statusRoutes } from '../../../../src/server/operator/status-routes.ts';
import { followSwitch } from '../../../../src/sync/connection-migration/index.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { PROVIDER, useMigrationWorld } from '../../sync/connection-migration/support/world.ts';

const m = useMigrationWorld();
const redis = useTestRedis();
const queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
afterAll(() => queues.close());

/** The worker's status routes, started with the connection it resolved at start-up. */
async function statusApp(connectionId: string) {
  const app = Fastify();
  await app.register(
    statusRoutes({
      sql: m.world.db.sql,
      connectionId,
      queues: queues.all(),
      signedIn: () => false,
      cacheMs: 0,
    }),
  );
  return app;
}

describe('the status page and status.json show the connection migration (docs/platform.md G30, G31)', () => {
  it('its progress and its job while it waits; after the switch, the new connection and "switched"', async () => {
    const source = await m.fresh();
    const { jobId } = await enqueueMigration(queues.migration, {
      provider: PROVIDER,
      backupDir: m.backupDir,
      force: false,
      skipSync: false,
      trigger: 'cli',
    });
    await m.world.db
      .sql`insert into connection_migrations (source_connection_id, provider) values (${source}, ${PROVIDER})`;
    const app = await statusApp(source);
    try {
      const waiting = (await app.inject({ url: '/status.json' })).json();
      expect(waiting.migration).toMatchObject({
        id: '1',
        state: 'started',
        phase: 'in_progress',
        done: 0,
        nextStep: 'check',
        job: { id: jobId, state: 'waiting' },
      });
      const page = (await app.inject({ url: '/status' })).body;
      expect(page).toContain('<h2>Connection migration</h2>');
      expect(page).toContain('data-phase="in_progress"');
      expect(page).toMatch(/Migration #1 to &quot;New ERP \(API\)&quot;: started, 0 of 6 steps done/);

      await queues.migration.obliterate({ force: true });
      await m.world.db.sql`delete from connection_migrations`;
      await m.world.db.sql`select setval('connection_migrations_id_seq', 1, false)`;
      const prepared = await m.prepare();
      await m.world.control('POST', `/__stub/connections/${prepared.targetConnectionId}/switch`);
      await followSwitch({ sql: m.world.db.sql, platform: m.platform, log: silentLogger }, source);

      const after = (await app.inject({ url: '/status.json' })).json();
      expect(after.connectionId).toBe(prepared.targetConnectionId);
      expect(after.migration).toMatchObject({ phase: 'switched', state: 'switched', done: 6, job: null });
      const switched = (await app.inject({ url: '/status' })).body;
      expect(switched).toContain(`connection ${prepared.targetConnectionId} is synced now`);
    } finally {
      await app.close();
    }
  });
});
