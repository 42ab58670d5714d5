import { afterEach, describe, expect, it } from 'vitest';
import type { RunningStub } from '../../src/index.ts';
import { harness } from './helpers.ts';

/**
 * How a request finds its route on fastify (src/server.ts, src/core/route-table.ts), with the F2
 * error body and x-trace-id on every answer, routed or not.
 */
describe('stub routing', () => {
  let stub: RunningStub | null = null;
  afterEach(async () => {
    await stub?.close();
    stub = null;
  });

  it('F2: a path that exists answers 405 for a method it lacks, an unknown path 404, both with x-trace-id', async () => {
    const h = await harness();
    stub = h.stub;
    const wrongMethod = await h.api.call('PUT', '/accounting/all-connections', {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error_v2.error_code).toBe('DEVELOPER_7404');
    expect(wrongMethod.headers.get('x-trace-id')).toBeTruthy();
    const unknown = await h.api.get('/accounting/no-such-list');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_v2.message).toBe('no route /accounting/no-such-list');
    expect(unknown.headers.get('x-trace-id')).toBeTruthy();
    expect((await h.control.call('PUT', '/health', {})).status).toBe(405);
    expect((await h.control.get('/no-such-route')).status).toBe(404);
  });

  it('a method a static path lacks goes to the parametric route covering it: GET /webhooks/mock-webhook-event', async () => {
    const h = await harness();
    stub = h.stub;
    const lookup = await h.api.get('/webhooks/mock-webhook-event');
    expect(lookup.status).toBe(404);
    expect(lookup.body.error_v2.message).toBe('webhook subscription mock-webhook-event not found');
    expect(lookup.body.error_v2.additional_info).toEqual({ id: 'mock-webhook-event' });
  });

  it('F2: a trailing or doubled slash is the same path; a bad %-escape is a path no route has', async () => {
    const h = await harness();
    stub = h.stub;
    expect((await h.api.get('/accounting/all-connections/')).status).toBe(200);
    expect((await h.api.get('//accounting//all-connections')).status).toBe(200);
    const bad = await h.api.get('/accounting/accounts/%E0%A4%A');
    expect(bad.status).toBe(404);
    expect(bad.body.error_v2.error_code).toBe('DEVELOPER_7404');
    expect(bad.headers.get('x-trace-id')).toBeTruthy();
  });

  it('F2: a body past 16 MiB is 413 DEVELOPER_7001; one that is not JSON is 400 DEVELOPER_7011', async () => {
    const h = await harness();
    stub = h.stub;
    const huge = await h.api.call('POST', '/accounting/accounts', ' '.repeat(17 * 1024 * 1024));
    expect(huge.status).toBe(413);
    expect(huge.body.error_v2.error_code).toBe('DEVELOPER_7001');
    const notJson = await h.api.call('POST', '/accounting/accounts', '{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error_v2.error_code).toBe('DEVELOPER_7011');
  });
});
