import { type Logger, silentLogger } from '../../../src/log.ts';
import { AuthStore } from './auth.ts';
import { StubClock } from './clock.ts';
import { notFound } from './core/errors.ts';
import type { ObjectKind } from './core/ids.ts';
import { Effects } from './effects.ts';
import { Faults } from './faults.ts';
import { DEFAULT_OAUTH_CONFIG, type OAuthConfig } from './oauth/grants.ts';
import { IdempotencyStore } from './rules/idempotency.ts';
import { DEFAULT_RATE_LIMIT, type RateLimitConfig, RateLimiter } from './rules/rate-limit.ts';
import { SyncRequests } from './rules/sync-window.ts';
import { WebhookHub } from './webhooks.ts';
import { Connections } from './world/connections.ts';
import type { GenContext } from './world/generate-common.ts';
import { type AnyObject, materialize } from './world/materialize.ts';
import { SelectionResolver } from './world/selections.ts';
import { World } from './world/world.ts';

/** Tunables: fixed by start options, changeable at run time through PUT /__stub/config. */
export interface StubConfig {
  rateLimit: RateLimitConfig | false;
  /** Extra latency added to every platform route. */
  latencyMs: number;
  /** A request slower than this answers 504 DEVELOPER_7504 (docs/platform.md G9: 60 s). */
  requestTimeoutMs: number;
  /** Webhook retry backoff base (F21); tests shrink it. */
  webhookRetryBaseMs: number;
  webhookMaxRetries: number;
  /** F21: receivers answer within 10 s. */
  webhookTimeoutMs: number;
  /** Webhook deliveries open at once; the rest wait their turn (a burst never opens thousands). */
  webhookMaxInFlight: number;
  /** docs/platform.md G29: requested rows not posted within 5 minutes are marked failed. */
  syncWindowMs: number;
  /**
   * docs/platform.md F33: answer POST /accounting/syncs with the published reference's
   * `201 {sync_id}` only, without the platform guide's per-item `results` (effects unchanged).
   */
  publishedAnswers: boolean;
  /** Authorization Code grant: lifetimes, refresh reuse grace, registered redirect URIs (docs/platform.md F44–F46). */
  oauth: OAuthConfig;
}

const DEFAULT_CONFIG: StubConfig = {
  rateLimit: DEFAULT_RATE_LIMIT,
  latencyMs: 0,
  requestTimeoutMs: 60_000,
  webhookRetryBaseMs: 1_000,
  webhookMaxRetries: 10,
  webhookTimeoutMs: 10_000,
  webhookMaxInFlight: 16,
  syncWindowMs: 5 * 60_000,
  publishedAnswers: false,
  oauth: DEFAULT_OAUTH_CONFIG,
};

/** The whole in-memory platform: everything a route reads or changes. */
export class StubState {
  readonly clock: StubClock;
  readonly log: Logger;
  readonly config: StubConfig;
  readonly auth: AuthStore;
  readonly connections = new Connections();
  readonly world = new World();
  readonly idempotency = new IdempotencyStore();
  readonly syncRequests = new SyncRequests();
  readonly faults = new Faults();
  readonly effects: Effects;
  readonly rateLimiter: RateLimiter;
  readonly webhooks: WebhookHub;
  private syncCounter = 0;

  constructor(options: { now?: () => number; log?: Logger; config?: Partial<StubConfig> } = {}) {
    this.clock = new StubClock(options.now);
    this.log = options.log ?? silentLogger;
    this.config = { ...DEFAULT_CONFIG, ...options.config };
    this.auth = new AuthStore(
      () => this.clock.now(),
      () => this.config.oauth,
    );
    this.effects = new Effects((kind, index) => this.world.idOf(kind, index));
    this.rateLimiter = new RateLimiter(this.config.rateLimit);
    this.webhooks = new WebhookHub({
      now: () => this.clock.now(),
      faults: this.faults,
      log: this.log,
      businessId: () => this.world.businessId,
      settings: () => ({
        retryBaseMs: this.config.webhookRetryBaseMs,
        maxRetries: this.config.webhookMaxRetries,
        timeoutMs: this.config.webhookTimeoutMs,
        maxInFlight: this.config.webhookMaxInFlight,
      }),
    });
  }

  now(): number {
    return this.clock.now();
  }

  /** POST /__stub/reset: an empty platform with the default client; config and clock base stay. */
  reset(): void {
    this.auth.reset();
    this.connections.clear();
    this.world.clear();
    this.idempotency.reset();
    this.syncRequests.reset();
    this.faults.reset();
    this.effects.reset();
    this.rateLimiter.reset();
    this.webhooks.reset();
    this.clock.resetOffset();
  }

  /** Generation context: selections resolve against the active connection's chart. */
  genContext(): GenContext {
    const active = this.connections.active();
    return {
      world: this.world,
      resolver: new SelectionResolver(active?.chart ?? null, active?.remote_provider_name),
      settings: active?.settings ?? null,
    };
  }

  objectJson(kind: ObjectKind, index: number, ctx: GenContext = this.genContext()): AnyObject {
    return materialize(ctx, kind, index);
  }

  /** Index of a known object id of a kind, or a 404 (DEVELOPER_7404). */
  requireIndex(kind: ObjectKind, id: string): number {
    const index = this.world.indexOf(kind, id);
    if (index < 0) throw notFound(kind, id);
    return index;
  }

  /** Monotonic sync ids are easier to read in logs than uuids; uuid-shaped for the client. */
  nextSyncId(): string {
    this.syncCounter++;
    return `5c000000-0000-4000-8000-${this.syncCounter.toString(16).padStart(12, '0')}`;
  }
}

/** Closes sync requests past their 5-minute deadline (docs/platform.md G29); called on every request and tick. */
export function sweepSyncWindow(state: StubState): number {
  return state.syncRequests.sweep(state.now(), (kind) => state.world.stores[kind], state.effects);
}
