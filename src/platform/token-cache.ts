/**
 * The client-credentials token (docs/platform.md F1), held in memory only. It is renewed shortly
 * before `expires_in` runs out, by one request at a time however many callers are waiting
 * (single flight), and once more when the platform says it expired (401 DEVELOPER_7028).
 *
 * A token without a positive lifetime (`expires_in` missing, zero or negative, docs/platform.md
 * F40) is handed to the callers that asked for it and renewed by the next `get()`. That costs at
 * most one token request per call, never a loop: a token request happens only when a caller asks
 * for a token to send one request, callers waiting together share one token request, and every
 * token request takes its own rate-limit permit (F3) like the call it serves, so the shared budget
 * still bounds them.
 */
export interface IssuedToken {
  accessToken: string;
  /** Seconds the token lives; null when the platform gave no positive lifetime (F40). */
  expiresInS: number | null;
  /**
   * When to renew, if the issuer decides (the Authorization Code grant's stored token, renewed by
   * its own rule); otherwise from `expiresInS` and the cache's options.
   */
  renewAtMs?: number;
}

export interface TokenCacheOptions {
  /** Renew when less than this share of the lifetime is left (default 10 %)... */
  refreshShare?: number;
  /** ...but never earlier than this before expiry (default 60 s). */
  maxEarlyMs?: number;
  now?: () => number;
}

export class TokenCache {
  private current: { token: string; renewAt: number } | null = null;
  private inFlight: Promise<string> | null = null;
  private readonly refreshShare: number;
  private readonly maxEarlyMs: number;
  private readonly now: () => number;
  private issued = 0;

  constructor(
    /** `rejected`: the token the platform just refused as expired, when that is why. */
    private readonly issue: (rejected?: string) => Promise<IssuedToken>,
    options: TokenCacheOptions = {},
  ) {
    this.refreshShare = options.refreshShare ?? 0.1;
    this.maxEarlyMs = options.maxEarlyMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** A token valid for a while yet; fetched (once for all waiting callers) when not. */
  get(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return Promise.resolve(this.current.token);
    return this.renew();
  }

  /**
   * The platform refused `rejected` as expired. Renew unless another caller already did (then
   * its newer token is used): 20 callers refused at once still cause one token request.
   */
  replace(rejected: string): Promise<string> {
    if (this.inFlight) return this.inFlight;
    if (this.current && this.current.token !== rejected) return Promise.resolve(this.current.token);
    this.current = null;
    return this.renew(rejected);
  }

  /** Tokens issued to this cache so far (for metrics and tests). */
  get issuedCount(): number {
    return this.issued;
  }

  private renew(rejected?: string): Promise<string> {
    if (this.inFlight) return this.inFlight;
    const flight = this.issue(rejected)
      .then(({ accessToken, expiresInS, renewAtMs }) => {
        // F40: no positive lifetime, so renew at once: only the callers of this flight use it.
        const lifetimeMs = expiresInS !== null && expiresInS > 0 ? expiresInS * 1000 : 0;
        const early = Math.min(this.maxEarlyMs, lifetimeMs * this.refreshShare);
        this.current = { token: accessToken, renewAt: renewAtMs ?? this.now() + lifetimeMs - early };
        this.issued++;
        return accessToken;
      })
      .finally(() => {
        if (this.inFlight === flight) this.inFlight = null;
      });
    this.inFlight = flight;
    return flight;
  }
}
