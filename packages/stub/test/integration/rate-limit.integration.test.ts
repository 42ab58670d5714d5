import { afterEach, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/index.ts';
import { Api, Control, harness } from './helpers.ts';

/** docs/platform.md F3 (rate limit) and the 60 s → 504 rule of docs/platform.md F2 / G9. */
describe('stub rate limit and request timeout', () => {
  let stub: RunningStub | null = null;
  afterEach(async () => {
    await stub?.close();
    stub = null;
  });

  it('F3: the 6th request inside 500 ms gets 429 with Retry-After; 429s do not count; the window frees', async () => {
    const h = await harness({ rateLimit: { max: 5, windowMs: 500 } });
    stub = h.stub;
    // The token call itself counted once; start from a fresh window.
    await new Promise((r) => setTimeout(r, 550));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await h.api.get('/accounting/all-connections')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await h.api.get('/accounting/all-connections');
    expect(limited.status).toBe(429);
    expect(limited.body.error_v2.error_code).toBe('DEVELOPER_7429');
    expect(limited.headers.get('retry-after')).toBe('1');
    // No other rate-limit headers (F3).
    expect([...limited.headers.keys()].filter((k) => k.includes('ratelimit'))).toEqual([]);
    // Hammering while limited does not extend the window: 429s are not counted.
    for (let i = 0; i < 10; i++) expect((await h.api.get('/accounting/all-connections')).status).toBe(429);
    await new Promise((r) => setTimeout(r, 520));
    expect((await h.api.get('/accounting/all-connections')).status).toBe(200);
  });

  it('F3: 200 requests per 10 s; the 201st is 429 with Retry-After in whole seconds (no waiting)', async () => {
    const h = await harness({ rateLimit: { max: 200, windowMs: 10_000 } });
    stub = h.stub;
    const statuses = await Promise.all(
      Array.from({ length: 199 }, () => h.api.get('/accounting/all-connections').then((a) => a.status)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await h.api.get('/accounting/all-connections');
    expect(over.status).toBe(429);
    const retry = Number(over.headers.get('retry-after'));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(10);
    // Control routes are never limited.
    expect((await h.control.get('/health')).status).toBe(200);
    const effects = await h.control.get('/effects?summary=true&include=arrivals&limit=1000');
    expect(effects.body.summary.max_admitted_in_window.max).toBe(200);
    expect(effects.body.arrivals.at(-1).status).toBe(429);
  });

  it('F3: crossing the window on the stub clock frees the slots', async () => {
    const h = await harness({ rateLimit: { max: 3, windowMs: 10_000 } });
    stub = h.stub;
    await h.api.get('/accounting/all-connections');
    await h.api.get('/accounting/all-connections');
    expect((await h.api.get('/accounting/all-connections')).status).toBe(429);
    await h.control.post('/clock', { advance_ms: 10_000 });
    expect((await h.api.get('/accounting/all-connections')).status).toBe(200);
  });

  it('F3: the limit can be changed at run time through PUT /__stub/config', async () => {
    const h = await harness({ rateLimit: false });
    stub = h.stub;
    await h.control.put('/config', { rate_limit: { max: 2, window_ms: 60_000 } });
    await h.api.get('/accounting/all-connections');
    await h.api.get('/accounting/all-connections');
    expect((await h.api.get('/accounting/all-connections')).status).toBe(429);
    await h.control.put('/config', { rate_limit: false });
    expect((await h.api.get('/accounting/all-connections')).status).toBe(200);
  });

  it('F2: a request slower than the timeout answers 504 DEVELOPER_7504 (threshold configurable)', async () => {
    const h = await harness({ config: { requestTimeoutMs: 100 } });
    stub = h.stub;
    // An hour of injected latency: the 504 comes at the threshold, or this test times out waiting.
    await h.control.put('/faults', {
      routes: { 'GET /accounting/all-connections': { latency_ms: 3_600_000 } },
    });
    const slow = await h.api.get('/accounting/all-connections');
    expect(slow.status).toBe(504);
    expect(slow.body.error_v2.error_code).toBe('DEVELOPER_7504');
    const other = await h.api.get('/entities');
    expect(other.status).toBe(200);
  });

  it('latencyMs adds latency to every platform route but not to control routes', async () => {
    const h = await harness({ latencyMs: 80, config: { requestTimeoutMs: 7_200_000 } });
    stub = h.stub;
    const t = Date.now();
    await new Api(h.stub, null).get('/accounting/all-connections');
    expect(Date.now() - t).toBeGreaterThanOrEqual(75);
    // With an hour of latency, control calls answer while a platform call is still held.
    await h.control.put('/config', { latency_ms: 3_600_000 });
    let platformAnswered = false;
    const held = new Api(h.stub, null).get('/accounting/all-connections').then(
      () => {
        platformAnswered = true;
      },
      () => undefined,
    );
    expect((await new Control(h.stub).get('/health')).status).toBe(200);
    expect(platformAnswered).toBe(false);
    // Closing the stub ends the held request's wait.
    await h.stub.close();
    await held;
  });
});
