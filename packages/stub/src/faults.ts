import { z } from 'zod';
import { Rng } from './core/prng.ts';

/**
 * Injected faults (PUT /__stub/faults): per-route 5xx rates, latency, 429 storms, 504s, "commit
 * then drop the connection" or "commit then answer 504", "drop before", a stall that never
 * answers (each as a rate or one-shot), one-shot faults for exact tests, platform-only batch rejections,
 * the F15 replay mode and webhook delivery disorder. Dice come from a seeded PRNG, so a run
 * with the same seed and the same request order fails the same requests.
 */

export const FaultAction = z.enum([
  'error_500',
  'error_502',
  'error_503',
  'rate_limit',
  'timeout',
  'timeout_after_commit',
  'drop_before',
  'drop_after_commit',
  'stall',
]);
export type FaultAction = z.infer<typeof FaultAction>;

const Rate = z.number().min(0).max(1);

const RouteFault = z.strictObject({
  error_rate: Rate.optional(),
  error_status: z.union([z.literal(500), z.literal(502), z.literal(503)]).optional(),
  latency_ms: z.number().min(0).optional(),
  /** The request takes effect, then its answer waits this long (a slow answer to an applied change). */
  latency_after_commit_ms: z.number().min(0).optional(),
  rate_limit_rate: Rate.optional(),
  timeout_rate: Rate.optional(),
  drop_after_commit_rate: Rate.optional(),
  /** The request takes effect, then a 504 answers it (the client cannot know it applied). */
  timeout_after_commit_rate: Rate.optional(),
  /** The connection is dropped before the request takes effect. */
  drop_before_rate: Rate.optional(),
  /** No answer at all, ever: the socket stays open until the client gives up. */
  stall_rate: Rate.optional(),
});

const OnceFault = z.strictObject({
  route: z.string().min(1),
  action: FaultAction,
  times: z.number().int().min(1).default(1),
});

export const FaultsConfig = z.strictObject({
  seed: z.number().int().default(1),
  /** Keys: `"POST /accounting/syncs"`, `"/accounting/syncs"` (any method) or `"*"`. */
  routes: z.record(z.string(), RouteFault).default({}),
  once: z.array(OnceFault).default([]),
  storm_429: z
    .strictObject({ count: z.number().int().min(1).optional(), duration_ms: z.number().min(0).optional() })
    .nullable()
    .default(null),
  reject_remote_ids: z.array(z.string()).default([]),
  /**
   * Broken `page.next` links per list path (`"/bills"`): `gone` links to a path that answers 404,
   * `other_list` to the first page of another list, `self` on every page to the URL just asked,
   * `empty_onward` from where the list ends to an empty page, and from each empty page to another,
   * without end. All are schema-valid answers (F43).
   */
  page_links: z.record(z.string(), z.enum(['gone', 'other_list', 'self', 'empty_onward'])).default({}),
  /**
   * List paths (`"/transactions"`) whose date probes (a first page asked with `from_date` and the
   * fewest items a page may hold, F4) answer `{data: [], page: {next}}`: an empty page that still
   * points onward, its link leading to the page it held. Schema-valid, and unusable as a probe.
   */
  empty_probe_pages: z.array(z.string()).default([]),
  /** Route keys answered 404 as if the route did not exist (an older platform, F39). */
  missing_routes: z.array(z.string()).default([]),
  /**
   * Chart uploads (`"POST /accounting/accounts"`, or `"*"` for every one) answered without their
   * item list, as both published copies allow (F41): `ids_only` keeps the svc_ids created
   * (`uploaded`), `empty` is `{}`. One-item creates keep what the published answer requires.
   */
  upload_answers: z.record(z.string(), z.enum(['ids_only', 'empty'])).default({}),
  idempotent_replay: z.enum(['replay', 'error_7005']).default('replay'),
  webhooks: z
    .strictObject({
      duplicate_rate: Rate.default(0),
      out_of_order: z.boolean().default(false),
      out_of_order_window_ms: z.number().min(0).default(50),
    })
    .default({ duplicate_rate: 0, out_of_order: false, out_of_order_window_ms: 50 }),
});
export type FaultsConfig = z.infer<typeof FaultsConfig>;

export interface FaultDecision {
  latencyMs: number;
  /** Waited after the handler ran, before the answer (`latency_after_commit_ms`). */
  latencyAfterCommitMs: number;
  action: FaultAction | null;
}

export class Faults {
  config: FaultsConfig = FaultsConfig.parse({});
  private rng = new Rng(1);
  private once: Array<{ route: string; action: FaultAction; left: number }> = [];
  private stormLeft = 0;
  private stormUntil = 0;
  private rejected = new Set<string>();

  configure(input: unknown, now: number): FaultsConfig {
    const config = FaultsConfig.parse(input ?? {});
    this.config = config;
    this.rng = new Rng(config.seed);
    this.once = config.once.map((o) => ({ route: o.route, action: o.action, left: o.times }));
    this.stormLeft = config.storm_429?.count ?? 0;
    this.stormUntil = config.storm_429?.duration_ms !== undefined ? now + config.storm_429.duration_ms : 0;
    this.rejected = new Set(config.reject_remote_ids);
    return config;
  }

  reset(): void {
    this.configure({}, 0);
  }

  get replayMode(): 'replay' | 'error_7005' {
    return this.config.idempotent_replay;
  }

  /** True when the request's route is configured as missing (`missing_routes`). */
  isMissing(method: string, pattern: string, path: string): boolean {
    return this.config.missing_routes.some((key) => routeKeyMatches(key, method, pattern, path));
  }

  /** How the answer of this upload is cut down (`upload_answers`), or null for the whole answer. */
  uploadAnswer(method: string, pattern: string, path: string): 'ids_only' | 'empty' | null {
    const key = Object.keys(this.config.upload_answers).find((k) =>
      routeKeyMatches(k, method, pattern, path),
    );
    return key === undefined ? null : (this.config.upload_answers[key] ?? null);
  }

  isRejectedRemoteId(id: string): boolean {
    return this.rejected.has(id);
  }

  /** What to do to one platform request; consumes one-shot faults and dice in arrival order. */
  decide(method: string, pattern: string, path: string, now: number): FaultDecision {
    const matches = (key: string) => routeKeyMatches(key, method, pattern, path);
    let latencyMs = 0;
    let latencyAfterCommitMs = 0;
    let action: FaultAction | null = null;
    const once = this.once.find((o) => o.left > 0 && matches(o.route));
    if (once) {
      once.left--;
      action = once.action;
    }
    if (!action && (this.stormLeft > 0 || now < this.stormUntil)) {
      if (this.stormLeft > 0) this.stormLeft--;
      action = 'rate_limit';
    }
    // A latency comes from the most specific key that sets one: `"*"` is the latency of every
    // route without one of its own, not an extra on top of it (reads at 15 s and `"*"` at 5 s
    // answer reads in 15 s, not 20 s).
    let latencyRank = -1;
    let afterCommitRank = -1;
    for (const [key, fault] of Object.entries(this.config.routes)) {
      if (!matches(key)) continue;
      const rank = keySpecificity(key);
      if (fault.latency_ms !== undefined && rank > latencyRank) {
        latencyMs = fault.latency_ms;
        latencyRank = rank;
      }
      if (fault.latency_after_commit_ms !== undefined && rank > afterCommitRank) {
        latencyAfterCommitMs = fault.latency_after_commit_ms;
        afterCommitRank = rank;
      }
      if (action) continue;
      if (this.rng.chance(fault.rate_limit_rate ?? 0)) action = 'rate_limit';
      else if (this.rng.chance(fault.timeout_rate ?? 0)) action = 'timeout';
      else if (this.rng.chance(fault.error_rate ?? 0))
        action = `error_${fault.error_status ?? 503}` as FaultAction;
      else if (this.rng.chance(fault.drop_after_commit_rate ?? 0)) action = 'drop_after_commit';
      else if (this.rng.chance(fault.timeout_after_commit_rate ?? 0)) action = 'timeout_after_commit';
      else if (this.rng.chance(fault.drop_before_rate ?? 0)) action = 'drop_before';
      else if (this.rng.chance(fault.stall_rate ?? 0)) action = 'stall';
    }
    return { latencyMs, latencyAfterCommitMs, action };
  }

  /** Webhook disorder dice (F21: duplicates and out-of-order deliveries). */
  duplicateDelivery(): boolean {
    return this.rng.chance(this.config.webhooks.duplicate_rate);
  }

  jitter(): number {
    return this.rng.next();
  }
}

/** How specific a route key is: a method and a path (3), a path (2), a method (`"GET *"`, 1), `"*"` (0). */
function keySpecificity(key: string): number {
  const space = key.indexOf(' ');
  const keyPath = space > 0 ? key.slice(space + 1).trim() : key.trim();
  return (space > 0 ? 1 : 0) + (keyPath === '*' ? 0 : 2);
}

function routeKeyMatches(key: string, method: string, pattern: string, path: string): boolean {
  if (key === '*') return true;
  const space = key.indexOf(' ');
  const keyMethod = space > 0 ? key.slice(0, space).toUpperCase() : null;
  const keyPath = space > 0 ? key.slice(space + 1).trim() : key.trim();
  if (keyMethod && keyMethod !== method) return false;
  return keyPath === pattern || keyPath === path || keyPath === '*';
}
