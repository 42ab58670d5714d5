import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  HOSTILE_MESSAGE,
  HOSTILE_OBJECT,
  OPERATOR_TOKEN,
  sumOf,
  useOperatorWorld,
  WEBHOOK_SECRET,
} from './support.ts';

/**
 * The worker's server listening beyond loopback (0.0.0.0) with OPERATOR_TOKEN set, after an
 * end-to-end sync through the worker's job path: /metrics shows the series, the operator pages
 * need the token, the webhook route and the health checks do not.
 */
const ops = useOperatorWorld({ host: '0.0.0.0', token: OPERATOR_TOKEN });
const local = () => ops.server.url.replace('0.0.0.0', '127.0.0.1');
const bearer = { authorization: `Bearer ${OPERATOR_TOKEN}` };

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${local()}${path}`, { headers, redirect: 'manual' });

beforeAll(async () => {
  await ops.syncThroughJobs();
}, 120_000);

describe('GET /metrics after an end-to-end sync', () => {
  let text = '';
  beforeAll(async () => {
    const response = await get('/metrics', bearer);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    text = await response.text();
  });

  it('platform requests by route and status, their duration, 429s and the limiter wait', () => {
    expect(
      sumOf(text, 'ledgersync_platform_requests_total', { route: '/token', status: '200' }),
    ).toBeGreaterThan(0);
    const readyReads = sumOf(text, 'ledgersync_platform_requests_total', { method: 'GET', status: '200' });
    expect(readyReads).toBeGreaterThan(5);
    expect(
      sumOf(text, 'ledgersync_platform_requests_total', { method: 'POST', route: '/accounting/syncs' }),
    ).toBeGreaterThan(0);
    // Ids never become labels: every route is a template.
    const routes = [...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!);
    for (const route of routes) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
    expect(sumOf(text, 'ledgersync_platform_request_duration_seconds_count')).toBeGreaterThan(5);
    expect(text).toMatch(/^ledgersync_platform_rate_limited_total 0$/m);
    expect(sumOf(text, 'ledgersync_platform_limiter_wait_seconds_count')).toBeGreaterThan(5);
  });

  it('objects synced and failed by kind (job summaries) and by category (ledger)', () => {
    expect(
      sumOf(text, 'ledgersync_objects_total', { kind: 'transactions', outcome: 'synced' }),
    ).toBeGreaterThan(0);
    expect(
      sumOf(text, 'ledgersync_objects_total', { kind: 'transactions', outcome: 'failed' }),
    ).toBeGreaterThan(0);
    expect(sumOf(text, 'ledgersync_objects_total', { kind: 'bills', outcome: 'synced' })).toBeGreaterThan(0);
    expect(sumOf(text, 'ledgersync_results_reported_total', { answer: 'accepted' })).toBeGreaterThan(0);
    expect(
      sumOf(text, 'ledgersync_reported_failures', { kind: 'transactions', category: 'user_actionable' }),
    ).toBeGreaterThan(1);
    expect(
      sumOf(text, 'ledgersync_reported_objects', { kind: 'transactions', result: 'synced' }),
    ).toBeGreaterThan(0);
  });

  it('outbox depth, sync-button latency histogram, job durations', async () => {
    // The gauge is what the ledger and the outbox table hold for the kind.
    const [outbox] = await ops.world.db.sql<{ unbatched: number; frozen: number }[]>`
      select (select count(*) from sync_ledger where sync_type = 'TRANSACTION_SYNC' and batch_id is null
                and state in ('IN_ERP', 'FAILED'))::int as unbatched,
             (select coalesce(sum(item_count), 0) from result_batches where sync_type = 'TRANSACTION_SYNC'
                and state = 'FROZEN')::int as frozen`;
    expect(sumOf(text, 'ledgersync_outbox_depth', { kind: 'transactions', stage: 'unbatched' })).toBe(
      outbox!.unbatched,
    );
    expect(sumOf(text, 'ledgersync_outbox_depth', { kind: 'transactions', stage: 'frozen' })).toBe(
      outbox!.frozen,
    );
    expect(text).toMatch(/^ledgersync_outbox_depth\{kind="bills",stage="unbatched"\} 0$/m);
    expect(text).toMatch(/^# TYPE ledgersync_sync_button_latency_seconds histogram$/m);
    expect(sumOf(text, 'ledgersync_sync_button_latency_seconds_count')).toBe(1);
    expect(sumOf(text, 'ledgersync_sync_button_latency_seconds_bucket', { le: '300' })).toBe(1);
    expect(sumOf(text, 'ledgersync_sync_button_requests', { state: 'answered' })).toBe(1);
    expect(
      sumOf(text, 'ledgersync_job_duration_seconds_count', { queue: 'object-sync', status: 'completed' }),
    ).toBe(5);
    expect(
      sumOf(text, 'ledgersync_job_duration_seconds_count', { queue: 'sync-button', status: 'completed' }),
    ).toBe(1);
    expect(text).toMatch(/^ledgersync_metrics_database_up 1$/m);
    // Node.js process series under their standard names; build info; last success per kind.
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
    const lastSuccess = text.match(
      /^ledgersync_last_success_timestamp_seconds\{kind="[a-z]+"\} ([\d.e+]+)$/m,
    );
    expect(Number(lastSuccess?.[1])).toBeGreaterThan(Date.now() / 1000 - 3600);
    expect(text).toMatch(/^ledgersync_build_info\{version="\d+\.\d+\.\d+",node="v\d+[^"]*"\} 1$/m);
  });

  it('no secret reaches the exposition', () => {
    expect(text).not.toContain(OPERATOR_TOKEN);
    expect(text).not.toContain(WEBHOOK_SECRET);
    expect(text).not.toMatch(/svc_(business|user)?_?tok/);
  });
});

describe('access beyond loopback', () => {
  const operatorPaths = ['/status', '/status.json', '/metrics', '/admin/queues', '/admin/queues/api/queues'];

  it('no token → 401, wrong token → 401, the token → 200, on every operator route', async () => {
    for (const path of operatorPaths) {
      expect((await get(path)).status, `${path} without a token`).toBe(401);
      expect((await get(path, { authorization: 'Bearer not-the-operator-token-000' })).status, path).toBe(
        401,
      );
      expect((await get(path, { authorization: `Bearer ${OPERATOR_TOKEN}x` })).status, path).toBe(401);
      expect((await get(path, { cookie: `ledgersync_operator=${OPERATOR_TOKEN}` })).status, path).toBe(401);
      expect((await get(path, bearer)).status, `${path} with the token`).toBe(200);
    }
    // Bull Board's control API is behind the same hook.
    const retry = await fetch(`${local()}/admin/queues/api/queues/object-sync/retry/failed`, {
      method: 'PUT',
    });
    expect(retry.status).toBe(401);
  });

  it('a browser asking for a page without the token gets the sign-in form, nothing else', async () => {
    const response = await get('/status', { accept: 'text/html' });
    expect(response.status).toBe(401);
    const page = await response.text();
    expect(page).toContain('<form method="post" action="/login">');
    expect(page).not.toContain(HOSTILE_OBJECT);
  });

  it('GET /login?token= sets the session cookie and redirects; the cookie opens the pages', async () => {
    const wrong = await get('/login?token=not-the-operator-token-000&next=/status');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const login = await get(`/login?token=${encodeURIComponent(OPERATOR_TOKEN)}&next=/admin/queues`);
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/admin/queues');
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ledgersync_operator=\d+\.[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax/);
    expect(cookie).not.toContain(OPERATOR_TOKEN);
    const session = cookie.split(';')[0]!;
    expect((await get('/status', { cookie: session })).status).toBe(200);
    expect((await get('/admin/queues', { cookie: session })).status).toBe(200);

    const offsite = await get(`/login?token=${encodeURIComponent(OPERATOR_TOKEN)}&next=//evil.example/x`);
    expect(offsite.headers.get('location')).toBe('/status');
    // A cookie-authenticated change from another site is refused.
    const forged = await fetch(`${local()}/admin/queues/api/queues/object-sync/retry/failed`, {
      method: 'PUT',
      headers: { cookie: session, origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
  });

  it('the webhook route, /healthz and /readyz need no operator token', async () => {
    const body = JSON.stringify({
      id: 'evt-operator-1',
      type: 'bills.created',
      created_at: new Date().toISOString(),
      business_id: 'biz',
      object: { id: 'bill-1' },
    });
    const signature = createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');
    const delivered = await fetch(`${local()}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-webhook-signature': signature },
      body,
    });
    expect(delivered.status).toBe(200);
    expect(await delivered.json()).toMatchObject({ status: 'ignored' });
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
  });
});

describe('/status.json and /status', () => {
  it('/status.json carries the report with the failures a bookkeeper must fix', async () => {
    const report = (await (await get('/status.json', bearer)).json()) as {
      connectionId: string;
      kinds: { kind: string; failed: { user_actionable: number } }[];
      recentFailures: { objectId: string; message: string; category: string }[];
    };
    expect(report.connectionId).toBe(ops.world.connectionId);
    expect(report.kinds.map((k) => k.kind)).toContain('transactions');
    expect(report.recentFailures[0]).toMatchObject({ objectId: HOSTILE_OBJECT, message: HOSTILE_MESSAGE });
    expect(report.recentFailures.length).toBeGreaterThan(1);
    for (const f of report.recentFailures) expect(f.message).toMatch(/^Action needed: /);
  });

  it('secret-shaped text in a message is masked; object ids are shown whole', async () => {
    await ops.world.db.sql`
      insert into sync_ledger (connection_id, object_id, sync_type, state, outcome, error_category, error_message, updated_at)
      values (${ops.world.connectionId}, 'txn-secret-in-message', 'TRANSACTION_SYNC', 'REPORTED', 'failure',
              'user_actionable', 'Action needed: the ERP said Bearer svc_tok_abcdef0123 access_token=hunter2',
              now())`;
    await new Promise((resolve) => setTimeout(resolve, 3_100)); // the report is reused for 3 s
    const text = await (await get('/status.json', bearer)).text();
    expect(text).toContain('txn-secret-in-message');
    expect(text).not.toContain('svc_tok_abcdef0123');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('[card-redacted]');
  });

  it('/status escapes every message and sends a CSP that allows no script', async () => {
    const response = await get('/status', bearer);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();
    expect(page).toContain(
      'Action needed: vendor &quot;&lt;img src=x onerror=alert(1)&gt;&quot; &amp; &lt;script&gt;',
    );
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<script');
  });
});
