import type { RunningStub } from '@ledgersync/stub';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformError } from '../../../src/platform/errors.ts';
import { useTestRedis } from '../../support/redis.ts';
import { capturingLogger } from './support/capture-log.ts';
import { addClient, control, effects, startTestStub, testClient } from './support/stub.ts';

const redis = useTestRedis();
const captured = capturingLogger();
const secrets: string[] = [];
let stub: RunningStub;
const clients: Array<ReturnType<typeof testClient>> = [];

beforeAll(async () => {
  stub = await startTestStub();
  await control(stub, 'POST', '/__stub/seed', { seed: 3, transactions: 5, entities: 2 });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await stub?.close();
});

async function newClient(tokenTtlS?: number) {
  const credentials = await addClient(stub, tokenTtlS);
  secrets.push(credentials.clientSecret);
  const client = testClient(stub, redis, credentials, captured.log);
  clients.push(client);
  return client;
}

async function tokenRequests(): Promise<number> {
  const { arrivals } = await effects(stub);
  return arrivals.filter((a) => a.route === '/token').length;
}

const entitiesPage = (client: ReturnType<typeof testClient>) =>
  client.request({ method: 'GET', path: '/entities', query: { page_size: 2 } });

describe('token (docs/platform.md F1)', () => {
  it('F1: one token serves many calls; 20 concurrent calls after it expires cause one token request', async () => {
    const client = await newClient(1);
    const before = await tokenRequests();
    await Promise.all(Array.from({ length: 5 }, () => entitiesPage(client)));
    expect((await tokenRequests()) - before).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await Promise.all(Array.from({ length: 20 }, () => entitiesPage(client)));
    expect((await tokenRequests()) - before).toBe(2);
    expect(client.stats().tokensIssued).toBe(2);
  });

  it('F1, F2: 20 concurrent calls refused with 401 DEVELOPER_7028 renew the token once and succeed', async () => {
    const client = await newClient(3_600);
    await entitiesPage(client);
    const before = await tokenRequests();
    // The platform's clock runs past the token's lifetime while the client still trusts it.
    await control(stub, 'POST', '/__stub/clock', { advance_ms: 3_601_000 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => entitiesPage(client)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await tokenRequests()) - before).toBe(1);
    const { arrivals } = await effects(stub);
    expect(arrivals.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(1);
  });

  it('F2: wrong credentials are a permanent 401, not retried, and the message hides the secret', async () => {
    const credentials = await addClient(stub);
    const wrong = { clientId: credentials.clientId, clientSecret: `${credentials.clientSecret}-wrong` };
    secrets.push(wrong.clientSecret);
    const client = testClient(stub, redis, wrong, captured.log);
    clients.push(client);
    const before = await tokenRequests();
    const error = await entitiesPage(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 401, code: 'DEVELOPER_7002', retryable: false });
    expect((error as Error).message).not.toContain(wrong.clientSecret);
    expect((error as PlatformError).traceId).toBeTruthy();
    expect((await tokenRequests()) - before).toBe(1);
  });

  it('nothing secret reaches the log: no client secret, no token', () => {
    const text = captured.text();
    expect(text.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/svc_business_tok_[A-Za-z0-9]/);
  });
});
