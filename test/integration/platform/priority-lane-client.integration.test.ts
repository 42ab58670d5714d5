import type { RunningStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { runWithPriority } from '../../../src/platform/priority.ts';
import { useTestRedis } from '../../support/redis.ts';
import { addClient, control, startTestStub, testClient } from './support/stub.ts';

/**
 * The lane is read at acquire time from the async context, so one runWithPriority around a
 * sync-button run puts every permit of it in the priority lane: the token request (F1) and the
 * retries (G8) too, with nothing else in the client changed.
 */
const redis = useTestRedis();
let stub: RunningStub;

beforeAll(async () => {
  stub = await startTestStub();
  await control(stub, 'POST', '/__stub/seed', { seed: 3, transactions: 5, entities: 2 });
});

afterAll(async () => {
  await stub?.close();
});

describe('platform client in the priority lane (docs/platform.md F3)', () => {
  it('F1, G8: the token request and a retry inside runWithPriority take priority permits; calls outside do not', async () => {
    const client = testClient(stub, redis, await addClient(stub), silentLogger);
    await control(stub, 'PUT', '/__stub/faults', {
      seed: 1,
      once: [{ route: 'GET /entities', action: 'error_503', times: 1 }],
    });
    // Token, the 503 and its retry: three attempts, three priority permits.
    await runWithPriority(() => client.request({ method: 'GET', path: '/entities' }));
    expect(client.stats().limiter).toMatchObject({ permitsGranted: 3, priorityPermits: 3 });
    await client.request({ method: 'GET', path: '/entities' });
    expect(client.stats().limiter).toMatchObject({ permitsGranted: 4, priorityPermits: 3 });
    await client.close();
  });
});
