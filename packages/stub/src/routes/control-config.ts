import { z } from 'zod';
import type { RouteDef } from '../core/route.ts';
import { parseRequest } from '../core/validate.ts';
import { FaultsConfig } from '../faults.ts';
import { sweepSyncWindow } from '../state.ts';
import { ok } from './helpers.ts';

/** Control routes for faults, tunables and the clock (packages/stub/README.md). */

const ConfigRequest = z.strictObject({
  rate_limit: z
    .union([
      z.literal(false),
      z.strictObject({ max: z.number().int().min(1), window_ms: z.number().int().min(1) }),
    ])
    .optional(),
  latency_ms: z.number().min(0).optional(),
  request_timeout_ms: z.number().min(1).optional(),
  webhook_retry_base_ms: z.number().min(0).optional(),
  webhook_max_retries: z.number().int().min(0).max(50).optional(),
  webhook_timeout_ms: z.number().min(1).optional(),
  webhook_max_in_flight: z.number().int().min(1).max(1000).optional(),
  sync_window_ms: z.number().min(1).optional(),
  /** docs/platform.md F33: POST /accounting/syncs answers `{sync_id}` only. */
  published_answers: z.boolean().optional(),
  /** Authorization Code grant (docs/platform.md F44–F46); fields left out keep their value. */
  oauth: z
    .strictObject({
      access_ttl_s: z.number().int().min(1).optional(),
      refresh_ttl_s: z.number().int().min(1).nullable().optional(),
      reuse_grace_s: z.number().min(0).optional(),
      redirect_uris: z.array(z.url()).optional(),
    })
    .optional(),
});

const ClockRequest = z.strictObject({ advance_ms: z.number().min(0) });

export const controlConfigRoutes: RouteDef[] = [
  {
    method: 'PUT',
    path: '/__stub/faults',
    scope: null,
    summary: 'Replace the fault configuration (PUT {} clears every fault)',
    handler(ctx) {
      const parsed = parseRequest(FaultsConfig, ctx.body ?? {});
      return ok(ctx.state.faults.configure(parsed, ctx.state.now()));
    },
  },
  {
    method: 'GET',
    path: '/__stub/faults',
    scope: null,
    summary: 'The fault configuration in force',
    handler: (ctx) => ok(ctx.state.faults.config),
  },
  {
    method: 'PUT',
    path: '/__stub/config',
    scope: null,
    summary:
      'Change tunables: rate limit, latency, 504 threshold, webhook backoff, sync window, published answers, oauth',
    handler(ctx) {
      const c = parseRequest(ConfigRequest, ctx.body ?? {});
      const config = ctx.state.config;
      if (c.rate_limit !== undefined) {
        config.rateLimit =
          c.rate_limit === false ? false : { max: c.rate_limit.max, windowMs: c.rate_limit.window_ms };
        ctx.state.rateLimiter.configure(config.rateLimit);
      }
      if (c.latency_ms !== undefined) config.latencyMs = c.latency_ms;
      if (c.request_timeout_ms !== undefined) config.requestTimeoutMs = c.request_timeout_ms;
      if (c.webhook_retry_base_ms !== undefined) config.webhookRetryBaseMs = c.webhook_retry_base_ms;
      if (c.webhook_max_retries !== undefined) config.webhookMaxRetries = c.webhook_max_retries;
      if (c.webhook_timeout_ms !== undefined) config.webhookTimeoutMs = c.webhook_timeout_ms;
      if (c.webhook_max_in_flight !== undefined) config.webhookMaxInFlight = c.webhook_max_in_flight;
      if (c.sync_window_ms !== undefined) config.syncWindowMs = c.sync_window_ms;
      if (c.published_answers !== undefined) config.publishedAnswers = c.published_answers;
      if (c.oauth) {
        const o = c.oauth;
        config.oauth = {
          accessTtlS: o.access_ttl_s ?? config.oauth.accessTtlS,
          refreshTtlS: o.refresh_ttl_s !== undefined ? o.refresh_ttl_s : config.oauth.refreshTtlS,
          reuseGraceS: o.reuse_grace_s ?? config.oauth.reuseGraceS,
          redirectUris: o.redirect_uris ?? config.oauth.redirectUris,
        };
      }
      return ok(config);
    },
  },
  {
    method: 'GET',
    path: '/__stub/config',
    scope: null,
    summary: 'Tunables in force',
    handler: (ctx) => ok(ctx.state.config),
  },
  {
    method: 'POST',
    path: '/__stub/clock',
    scope: null,
    summary: 'Advance the stub clock; expired sync-button rows are marked failed at once',
    handler(ctx) {
      const c = parseRequest(ClockRequest, ctx.body ?? {});
      ctx.state.clock.advance(c.advance_ms);
      const expired = sweepSyncWindow(ctx.state);
      return ok({ now: ctx.state.clock.iso(), offset_ms: ctx.state.clock.offset, expired_rows: expired });
    },
  },
  {
    method: 'GET',
    path: '/__stub/clock',
    scope: null,
    summary: 'The stub clock',
    handler: (ctx) => ok({ now: ctx.state.clock.iso(), offset_ms: ctx.state.clock.offset }),
  },
];
